import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { commitmentsRepoCases } from "./commitments-test-helpers.ts";

commitmentsRepoCases("SQLite", openSqliteTestDatabase);
