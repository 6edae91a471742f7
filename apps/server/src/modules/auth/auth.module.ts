import type { Kysely } from "kysely";
import type { User } from "@sage/contracts/auth";
import type { AppModule } from "../../http/app-module.ts";
import type { SessionAuthenticator } from "../../http/session-guard.ts";
import type { Database } from "../../store/schema.ts";
import { createAuthRepo } from "./auth.repo.ts";
import { registerAuthRoutes } from "./auth.routes.ts";
import { createAuthService } from "./auth.service.ts";
import { createLoginRateLimiter } from "./login-rate-limiter.ts";
import type { PasswordHasher } from "./password.ts";

export interface AuthModule extends AppModule, SessionAuthenticator {
  /** Settles once the demo account is in step with config; start-up fails if it rejects. */
  accountsReady: Promise<void>;
  createUser(username: string, password: string): Promise<User>;
}

export function createAuthModule(deps: {
  db: Kysely<Database>;
  hasher: PasswordHasher;
  sessionDays: number;
  demoUser: { username: string; password: string };
  loginRateLimit: number;
  secureCookies: boolean;
  /** Other processes share the database: sessions are checked there at every request. */
  shared?: boolean;
}): AuthModule {
  const service = createAuthService({ repo: createAuthRepo(deps.db), hasher: deps.hasher, sessionDays: deps.sessionDays, shared: deps.shared });
  // Keeping the demo account's password in step with config costs a password check (0.1-0.4 s in production), so it runs
  // beside the rest of start-up instead of before it; a login waits for it, and so does close.
  const accountsReady = service.ensureDemoUser(deps.demoUser.username, deps.demoUser.password).then(async () => {
    await service.pruneExpiredSessions();
  });
  accountsReady.catch(() => {}); // reported where it is awaited: main.ts and the login route
  return {
    accountsReady,
    authenticate: (token) => service.authenticate(token),
    createUser: (username, password) => service.createUser(username, password),
    register(app) {
      app.addHook("onClose", () => accountsReady.catch(() => {}));
      const limiter = createLoginRateLimiter({ db: deps.db, limit: deps.loginRateLimit, windowMs: 60_000 });
      registerAuthRoutes(app, { auth: service, accountsReady, limiter, secureCookies: deps.secureCookies });
    },
  };
}
