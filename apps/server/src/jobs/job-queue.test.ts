import { openSqliteTestDatabase } from "../test/test-databases.ts";
import { jobQueueCases } from "./job-queue-test-helpers.ts";

jobQueueCases("SQLite", openSqliteTestDatabase);
