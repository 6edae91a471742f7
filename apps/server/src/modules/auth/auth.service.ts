import { createHash, randomBytes } from "node:crypto";
import { LOGIN_FAILED_MESSAGE, type User } from "@sage/contracts/auth";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepo } from "./auth.repo.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** The spec's fixed user id for the demonstration account. */
export const DEMO_USER_ID = 3;

const DAY_MS = 24 * 60 * 60 * 1000;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function createAuthService(deps: { repo: AuthRepo; sessionDays: number; now?: () => number }) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;
  const sessionMs = deps.sessionDays * DAY_MS;
  // Verifying against a real hash when the user is unknown keeps timing the same for both failures.
  let decoyHash: Promise<string> | undefined;

  return {
    /** Creates the demonstration account (id 3) on first start; later starts keep its password in step with config. */
    async ensureDemoUser(username: string, password: string): Promise<void> {
      const existing = await repo.findUserById(DEMO_USER_ID);
      if (!existing) {
        await repo.insertUser({ id: DEMO_USER_ID, username, passwordHash: await hashPassword(password) });
        return;
      }
      if (!(await verifyPassword(existing.passwordHash, password))) {
        await repo.updatePasswordHash(DEMO_USER_ID, await hashPassword(password));
      }
    },

    async createUser(username: string, password: string): Promise<User> {
      if (await repo.findUserByUsername(username)) throw new AppError("user_exists", 409, "That username is taken");
      const id = await repo.insertUser({ username, passwordHash: await hashPassword(password) });
      return { id, username };
    },

    /** Returns the new session token and user, or throws 401 with the same message for any failure. */
    async login(username: string, password: string): Promise<{ token: string; user: User; expiresAtMs: number }> {
      const user = await repo.findUserByUsername(username);
      decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
      const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash), password);
      if (!user || !ok) throw new AppError("invalid_credentials", 401, LOGIN_FAILED_MESSAGE);
      const token = randomBytes(32).toString("base64url");
      const expiresAtMs = now() + sessionMs;
      await repo.insertSession({ tokenHash: hashToken(token), userId: user.id, expiresAtMs });
      return { token, user: { id: user.id, username: user.username }, expiresAtMs };
    },

    /** The session's user, sliding the expiry forward once a day at most. */
    async authenticate(token: string | undefined): Promise<User | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hashToken(token);
      const current = now();
      const row = await repo.findSessionUser(tokenHash, current);
      if (!row) return null;
      if (row.expiresAtMs - current < sessionMs - DAY_MS) await repo.extendSession(tokenHash, current + sessionMs);
      return { id: row.id, username: row.username };
    },

    async logout(token: string | undefined): Promise<void> {
      if (token) await repo.deleteSession(hashToken(token));
    },

    pruneExpiredSessions: () => repo.deleteExpiredSessions(now()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
