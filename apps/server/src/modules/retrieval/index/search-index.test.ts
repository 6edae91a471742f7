import { openSqliteTestDatabase } from "../../../test/test-databases.ts";
import { searchIndexCases } from "./search-index-test-helpers.ts";

searchIndexCases("SQLite", openSqliteTestDatabase);
