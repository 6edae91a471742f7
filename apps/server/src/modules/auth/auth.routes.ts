import type { FastifyInstance } from "fastify";
import { LOGIN_RATE_LIMITED_MESSAGE, loginRequestSchema, okResponseSchema, sessionUserResponseSchema } from "@sage/contracts/auth";
import { AppError } from "../../http/app-error.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { SESSION_COOKIE, requireUser } from "../../http/session-guard.ts";
import type { AuthService } from "./auth.service.ts";
import type { LoginRateLimiter } from "./login-rate-limiter.ts";

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; accountsReady: Promise<void>; limiter: LoginRateLimiter; secureCookies: boolean },
) {
  const { limiter } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const login = { summary: "Log in: sets the session cookie", security: [], body: loginRequestSchema, response: { 200: sessionUserResponseSchema } };
  // A login waits until the demo account is in step with config. Only a well-formed attempt counts (a malformed one
  // is refused by the schema and tries no password), so bad input changes nothing stored.
  api.post("/api/auth/login", { onRequest: async () => deps.accountsReady, schema: login }, async (request, reply) => {
    const { username, password } = request.body;
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

  api.post("/api/auth/logout", { schema: { summary: "Log out: ends the session", response: { 200: okResponseSchema } } }, async (request, reply) => {
    await deps.auth.logout(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true as const };
  });

  api.get("/api/auth/me", { schema: { summary: "Who is logged in", response: { 200: sessionUserResponseSchema } } }, async (request) => ({
    user: requireUser(request),
  }));
}
