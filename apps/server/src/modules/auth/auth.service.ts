import { createHash, randomBytes } from "node:crypto";
import { LOGIN_FAILED_MESSAGE, type User } from "@sage/contracts/auth";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepo } from "./auth.repo.ts";
import type { PasswordHasher } from "./password.ts";

/** The demonstration account always has id 3: the web app of the original product assumed that id. */
export const DEMO_USER_ID = 3;

const DAY_MS = 24 * 60 * 60 * 1000;
const SESSION_CACHE_MS = 10_000;
const SESSION_CACHE_ENTRIES = 10_000;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function createAuthService(deps: {
  repo: AuthRepo;
  hasher: PasswordHasher;
  sessionDays: number;
  now?: () => number;
  /** Other processes share the database: a logout there must end the session here at once, so nothing is cached. */
  shared?: boolean;
}) {
  const { repo, hasher } = deps;
  const cacheMs = deps.shared ? 0 : SESSION_CACHE_MS;
  const now = deps.now ?? Date.now;
  const sessionMs = deps.sessionDays * DAY_MS;
  // Verifying against a real hash when the user is unknown keeps timing the same for both failures.
  let decoyHash: Promise<string> | undefined;
  // Every API request authenticates; sessions confirmed in the last few seconds skip the database.
  // Alone on its store, a process's logout removes the entry at once, so the cache cannot outlive a logout.
  const recent = new Map<string, { user: User; expiresAtMs: number; checkedAt: number }>();

  return {
    /** Creates the demonstration account (id 3) on first start; later starts keep its password in step with config. */
    async ensureDemoUser(username: string, password: string): Promise<void> {
      const existing = await repo.findUserById(DEMO_USER_ID);
      if (!existing) {
        await repo.insertUserIfAbsent({ id: DEMO_USER_ID, username, passwordHash: await hasher.hash(password) });
        return;
      }
      if (!(await hasher.verify(existing.passwordHash, password))) {
        await repo.updatePasswordHash(DEMO_USER_ID, await hasher.hash(password));
      }
    },

    async createUser(username: string, password: string): Promise<User> {
      if (await repo.findUserByUsername(username)) throw new AppError("user_exists", 409, "That username is taken");
      const id = await repo.insertUser({ username, passwordHash: await hasher.hash(password) });
      return { id, username };
    },

    /** Returns the new session token and user, or throws 401 with the same message for any failure. */
    async login(username: string, password: string): Promise<{ token: string; user: User; expiresAtMs: number }> {
      const user = await repo.findUserByUsername(username);
      decoyHash ??= hasher.hash(randomBytes(16).toString("hex"));
      const ok = await hasher.verify(user?.passwordHash ?? (await decoyHash), password);
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
      const cached = recent.get(tokenHash);
      if (cached && current - cached.checkedAt < cacheMs && cached.expiresAtMs > current) return cached.user;
      const row = await repo.findSessionUser(tokenHash, current);
      if (!row) {
        recent.delete(tokenHash);
        return null;
      }
      let expiresAtMs = row.expiresAtMs;
      if (expiresAtMs - current < sessionMs - DAY_MS) {
        expiresAtMs = current + sessionMs;
        await repo.extendSession(tokenHash, expiresAtMs);
      }
      const user = { id: row.id, username: row.username };
      if (recent.size >= SESSION_CACHE_ENTRIES) recent.clear();
      if (cacheMs > 0) recent.set(tokenHash, { user, expiresAtMs, checkedAt: current });
      return user;
    },

    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      const tokenHash = hashToken(token);
      recent.delete(tokenHash);
      await repo.deleteSession(tokenHash);
    },

    pruneExpiredSessions: () => repo.deleteExpiredSessions(now()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
