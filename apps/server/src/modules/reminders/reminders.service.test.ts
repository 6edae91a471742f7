import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { reminderCases } from "./reminders-test-helpers.ts";

reminderCases("SQLite", openSqliteTestDatabase);
