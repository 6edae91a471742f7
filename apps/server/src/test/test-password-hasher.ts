import { argon2Hasher } from "../modules/auth/password.ts";

/**
 * Real argon2id at the least cost argon2 allows (8 KiB, one pass): still a one-way check, but microseconds
 * instead of production's 0.1-0.4 s, which was most of a route test's setup. Production's cost is tested
 * once, in auth.routes.test.ts.
 */
export const testPasswordHasher = argon2Hasher({ memoryCost: 8, timeCost: 1, parallelism: 1 });
