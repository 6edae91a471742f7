import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { accountsBackupCases } from "./accounts-backup-test-helpers.ts";

accountsBackupCases("SQLite", openSqliteTestDatabase);
