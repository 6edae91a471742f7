import { openSqliteTestDatabase } from "../../test/test-databases.ts";
import { loginRateLimiterCases } from "./login-rate-limiter-test-helpers.ts";

loginRateLimiterCases("SQLite", openSqliteTestDatabase);
