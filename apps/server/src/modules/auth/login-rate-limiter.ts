import { sql, type Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

export interface LoginRateLimiter {
  /**
   * Counts one attempt. Over the limit for the current window, answers the whole seconds until the window ends
   * (what a 429's Retry-After says); otherwise 0.
   */
  tryAttempt(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

/**
 * Fixed-window counter per client key, in the database (decision 061): every process behind a balancer counts the
 * same attempts, so N processes do not give a client N times the limit. One upsert per attempt counts and reads the
 * window at once, so two processes counting together never both start a new window.
 */
export function createLoginRateLimiter(options: { db: Kysely<Database>; limit: number; windowMs: number; now?: () => number }): LoginRateLimiter {
  const now = options.now ?? Date.now;
  let prunedAt = 0;
  return {
    async tryAttempt(key) {
      const current = now();
      const ended = current - options.windowMs;
      const { rows } = await sql<{ startedMs: number; attempts: number }>`
        INSERT INTO login_attempts (client_key, window_started_ms, attempts) VALUES (${key}, ${current}, 1)
        ON CONFLICT (client_key) DO UPDATE SET
          window_started_ms = CASE WHEN login_attempts.window_started_ms <= ${ended} THEN ${current} ELSE login_attempts.window_started_ms END,
          attempts = CASE WHEN login_attempts.window_started_ms <= ${ended} THEN 1 ELSE login_attempts.attempts + 1 END
        RETURNING window_started_ms AS started_ms, attempts`.execute(options.db);
      // Windows that ended are forgotten, at most once a window per process: the table holds recent clients only.
      if (current - prunedAt >= options.windowMs) {
        prunedAt = current;
        await options.db.deleteFrom("loginAttempts").where("windowStartedMs", "<=", ended).execute();
      }
      const { startedMs, attempts } = rows[0]!;
      if (Number(attempts) <= options.limit) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(startedMs) + options.windowMs - current) / 1000)) };
    },
  };
}
