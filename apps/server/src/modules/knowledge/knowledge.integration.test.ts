import { describeOnPostgres } from "../../test/test-databases.ts";
import { knowledgeRepoCases } from "./knowledge-test-helpers.ts";

describeOnPostgres("knowledge items on PostgreSQL", (databases) => {
  knowledgeRepoCases("PostgreSQL", databases.open);
});
