import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { authCases } from "./auth-test-helpers.ts";

authCases("SQLite", openSqliteTestDatabase);
