import type { FastifyInstance } from "fastify";
import { LOGIN_RATE_LIMITED_MESSAGE, loginRequestSchema } from "@sage/contracts/auth";
import { AppError } from "../../http/app-error.ts";
import { SESSION_COOKIE, requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { AuthService } from "./auth.service.ts";
import type { LoginRateLimiter } from "./login-rate-limiter.ts";

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; accountsReady: Promise<void>; limiter: LoginRateLimiter; secureCookies: boolean },
) {
  const { limiter } = deps;

  // A login waits until the demo account is in step with config.
  app.post("/api/auth/login", { onRequest: async () => deps.accountsReady }, async (request, reply) => {
    // Only a well-formed attempt counts (a malformed one tries no password), so bad input changes nothing stored.
    const { username, password } = parseInput(loginRequestSchema, request.body, "body");
    const attempt = await limiter.tryAttempt(request.ip);
    if (!attempt.allowed) {
      // The error handler keeps headers already set on the reply.
      reply.header("retry-after", String(attempt.retryAfterSeconds));
      throw new AppError("rate_limited", 429, LOGIN_RATE_LIMITED_MESSAGE);
    }
    const { token, user, expiresAtMs } = await deps.auth.login(username.trim(), password);
    reply.setCookie(SESSION_COOKIE, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: deps.secureCookies,
      expires: new Date(expiresAtMs),
    });
    return { user };
  });

  app.post("/api/auth/logout", async (request, reply) => {
    await deps.auth.logout(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true };
  });

  app.get("/api/auth/me", async (request) => ({ user: requireUser(request) }));
}
