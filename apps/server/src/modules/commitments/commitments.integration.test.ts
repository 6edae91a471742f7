import { describeOnPostgres } from "../../test/test-databases.ts";
import { commitmentsRepoCases } from "./commitments-test-helpers.ts";

describeOnPostgres("the commitments ledger on PostgreSQL", (databases) => {
  commitmentsRepoCases("PostgreSQL", databases.open);
});
