import { describeOnPostgres } from "../../test/test-databases.ts";
import { memoryCases } from "./memory-test-helpers.ts";

describeOnPostgres("memories on PostgreSQL", (databases) => {
  memoryCases("PostgreSQL", databases.open);
});
