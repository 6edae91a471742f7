import { describeOnPostgres } from "../../test/test-databases.ts";
import { accountsBackupCases } from "./accounts-backup-test-helpers.ts";

describeOnPostgres("accounts in a backup on PostgreSQL", (databases) => {
  accountsBackupCases("PostgreSQL", databases.open);
});
