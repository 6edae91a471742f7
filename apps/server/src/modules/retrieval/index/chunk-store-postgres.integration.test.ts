import { describeOnPostgres } from "../../../test/test-databases.ts";
import { chunkStoreCases } from "./chunk-store-test-helpers.ts";

describeOnPostgres("the search index's chunks on PostgreSQL", (databases) => {
  chunkStoreCases("PostgreSQL", databases.open);
});
