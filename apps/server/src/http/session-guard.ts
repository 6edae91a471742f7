import type { FastifyInstance, FastifyRequest } from "fastify";
import type { User } from "@sage/contracts/auth";
import { AppError } from "./app-error.ts";

/** The one thing the guard needs from the auth module: who a session cookie belongs to. */
export interface SessionAuthenticator {
  authenticate(token: string | undefined): Promise<User | null>;
}

export const SESSION_COOKIE = "sage_session";

declare module "fastify" {
  interface FastifyRequest {
    user: User | null;
  }
}

/** Routes reachable without a session: `${method} ${url-without-query}`. */
const PUBLIC_ROUTES = new Set([
  "POST /api/auth/login",
  "GET /api/health",
  "HEAD /api/health",
  // SAGE's OAuth client metadata document: its address is a client id, which authorization servers fetch (decision 080).
  "GET /api/tools/oauth/client-metadata.json",
]);
/** The reminders feed: its secret address is its key, as calendar apps cannot log in (a wrong one is a 404). */
/** Slack's Events API posts: each request is signed with the channel's signing secret, checked by the route (decision 077). */
/** A webhook schedule's secret address: another service calls it; a wrong secret is a 404 (decision 105). */
const PUBLIC_PATTERNS = [
  /^(GET|HEAD) \/api\/calendar\/[A-Za-z0-9_-]+\.ics$/,
  /^POST \/api\/channels\/\d{1,15}\/slack-events$/,
  /^POST \/api\/hooks\/[A-Za-z0-9_-]{1,200}$/,
];

// split always yields at least one piece, the whole string when there is no "?".
const pathOf = (request: FastifyRequest) => request.url.split("?", 1)[0]!;

/** The signed-in user of a request that passed the guard. */
export function requireUser(request: FastifyRequest): User {
  if (!request.user) throw new AppError("unauthorized", 401, "Not logged in");
  return request.user;
}

/** The names under which the web app sends its user id. */
export const USER_ID_FIELDS = ["userId", "user_id"] as const;

/**
 * Every user id the client sent must be the session's own (none at all is fine): 403 otherwise. The guard checks
 * queries and JSON bodies; routes that read a multipart form check its fields with this too.
 */
export function assertOwnUserId(user: User, values: Iterable<unknown>) {
  for (const value of values) {
    if (value === undefined || value === null || value === "") continue;
    if (Number(value) !== user.id) throw new AppError("user_mismatch", 403, "userId does not match the logged-in user");
  }
}

/**
 * Every /api route needs a session (401 otherwise). A `userId` the client passes (the web app sends its own
 * user id in queries and bodies) must be the session's own user: 403 otherwise.
 */
export function registerSessionGuard(app: FastifyInstance, auth: SessionAuthenticator) {
  app.decorateRequest("user", null);

  app.addHook("onRequest", async (request) => {
    const path = pathOf(request);
    if (!path.startsWith("/api/") && path !== "/api") return;
    request.user = await auth.authenticate(request.cookies[SESSION_COOKIE]);
    const route = `${request.method} ${path}`;
    if (request.user || PUBLIC_ROUTES.has(route) || PUBLIC_PATTERNS.some((pattern) => pattern.test(route))) return;
    throw new AppError("unauthorized", 401, "Not logged in");
  });

  // Before validation: a route's schema drops fields it does not name, userId among them.
  app.addHook("preValidation", async (request) => {
    if (!request.user) return;
    for (const source of [request.query, request.body]) {
      if (!source || typeof source !== "object" || Array.isArray(source)) continue;
      const record = source as Record<string, unknown>;
      assertOwnUserId(
        request.user,
        USER_ID_FIELDS.map((key) => record[key]),
      );
    }
  });
}
