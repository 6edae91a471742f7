import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { knowledgeRepoCases } from "./knowledge-test-helpers.ts";

knowledgeRepoCases("SQLite", openSqliteTestDatabase);
