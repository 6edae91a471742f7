import argon2 from "argon2";

/** Hashes passwords and checks them; the app takes one in its deps, so tests need not pay production's cost. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password, and for a stored hash that cannot be read. */
  verify(hash: string, password: string): Promise<boolean>;
}

export interface Argon2Cost {
  /** KiB of memory per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** What every stored password costs to guess: argon2id with 64 MiB, 3 passes, 4 lanes (argon2's defaults, pinned). */
export const PRODUCTION_ARGON2: Argon2Cost = { memoryCost: 65_536, timeCost: 3, parallelism: 4 };

/** argon2id at the given cost. A check reads the cost from the stored hash, so any hash verifies whatever the cost. */
export function argon2Hasher(cost: Argon2Cost): PasswordHasher {
  return {
    hash: (password) => argon2.hash(password, { type: argon2.argon2id, ...cost }),
    async verify(hash, password) {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}

export const productionHasher = argon2Hasher(PRODUCTION_ARGON2);

/** OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane): about a sixth of the standard cost, for small machines. */
export const MINIMUM_ARGON2: Argon2Cost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The hasher for SAGE_PASSWORD_COST. Hashes already stored keep verifying whatever the setting (the cost is in each). */
export function hasherFor(cost: "standard" | "minimum"): PasswordHasher {
  return cost === "minimum" ? argon2Hasher(MINIMUM_ARGON2) : productionHasher;
}
