import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { memoryCases } from "./memory-test-helpers.ts";

memoryCases("SQLite", openSqliteTestDatabase);
