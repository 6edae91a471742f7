import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { conversationRowCases } from "./conversations-test-helpers.ts";

conversationRowCases("SQLite", openSqliteTestDatabase);
