import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  OAUTH_ERRORS,
  OAUTH_PROVIDER_IDS,
  SIGN_IN_RESULT_PARAM,
  oauthProviderListSchema,
  signInCallbackQuerySchema,
  signInProviderParamsSchema,
  signInRedirectSchema,
  signInStartQuerySchema,
} from "@sage/contracts/oauth";
import { badRequest } from "../../http/app-error.ts";
import { always } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { SignInService } from "./sign-in.service.ts";

/** Ties a sign-in to the browser that started it: a random value in an HttpOnly cookie, its hash kept with the flow. */
export const BROWSER_COOKIE = "sage_oauth_browser";
const COOKIE_PATH = "/api/oauth/";

/** Whatever signs in (a mail account; later an MCP server): the start route's parameter names it. */
export interface SignInOwner {
  /** The query parameter of /api/oauth/{provider}/start naming the owner: `account` in ?account=12. */
  param: string;
  /** The grant a sign-in for this owner fills, and who is expected (login_hint); 404 when the user has no such owner. */
  grantFor(userId: number, ownerId: number, providerId: string): Promise<{ grantId: number; loginHint?: string }>;
  /** The grant's tokens are stored: the owner takes up its work. Answers where the browser goes, if it is its grant. */
  signedIn(userId: number, grantId: number, result: string): Promise<string | null>;
}

const ownerId = z.coerce.number().int().positive();
const SETTINGS = "/settings?section=accounts";

/** An unknown provider, a malformed owner or a callback query that is not a provider's: each says so in its words. */
const invalidInput = {
  path: always(() => badRequest(OAUTH_ERRORS.unknownProvider, "validation_error")),
  query: always(() => badRequest(OAUTH_ERRORS.ownerRequired, "validation_error")),
};
const callbackInvalid = { ...invalidInput, query: always(() => badRequest(OAUTH_ERRORS.stateInvalid, "sign_in_state_invalid")) };

/**
 * GET /api/oauth/providers; GET /api/oauth/{provider}/start?account={id} (302 to the provider); GET
 * /api/oauth/{provider}/callback (302 back to Settings > Accounts, or 400 for a wrong or used state).
 */
export function registerSignInRoutes(
  app: FastifyInstance,
  deps: { service: SignInService; owners: SignInOwner[]; publicUrl: string | null; secureCookies: boolean },
) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The redirect URI registered with each provider: SAGE_PUBLIC_URL's, else the address the browser used. */
  const origin = (request: FastifyRequest) => deps.publicUrl ?? `${deps.secureCookies ? "https" : request.protocol}://${request.host}`;

  api.get(
    "/api/oauth/providers",
    {
      schema: {
        summary: "The sign-in providers (Google, Microsoft, the company's) and whether the operator set each up",
        response: { 200: oauthProviderListSchema },
      },
    },
    async (request) => {
      requireUser(request);
      return service.list();
    },
  );

  api.get(
    "/api/oauth/:provider/start",
    {
      config: { invalidInput },
      schema: {
        summary: "Starts a sign-in: 302 to the provider's authorization endpoint (code, PKCE S256, state)",
        params: signInProviderParamsSchema,
        querystring: signInStartQuerySchema,
        response: { 302: signInRedirectSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const providerId = request.params.provider;
      // The three of Settings > Accounts say what the operator must set; a family's provider is the owner's to name.
      if ((OAUTH_PROVIDER_IDS as readonly string[]).includes(providerId)) service.configured(providerId);
      const query = request.query as Record<string, unknown>;
      const owner = deps.owners.find((candidate) => query[candidate.param] !== undefined);
      const id = owner ? ownerId.safeParse(query[owner.param]) : undefined;
      if (!owner || !id?.success) throw badRequest(OAUTH_ERRORS.ownerRequired, "validation_error");
      const { grantId, loginHint } = await owner.grantFor(user.id, id.data, providerId);
      let browser = request.cookies[BROWSER_COOKIE];
      if (!browser || browser.length < 20) {
        browser = randomBytes(32).toString("base64url");
        reply.setCookie(BROWSER_COOKIE, browser, { path: COOKIE_PATH, httpOnly: true, sameSite: "lax", secure: deps.secureCookies, maxAge: 30 * 86_400 });
      }
      const url = await service.start({
        userId: user.id,
        grantId,
        redirectUri: `${origin(request)}/api/oauth/${providerId}/callback`,
        browser,
        ...(loginHint ? { loginHint } : {}),
      });
      return reply.header("cache-control", "no-store").redirect(url.href, 302);
    },
  );

  api.get(
    "/api/oauth/:provider/callback",
    {
      config: { invalidInput: callbackInvalid },
      schema: {
        summary: "Where the provider sends the browser back: 302 to Settings > Accounts; a wrong or used state is 400 and changes nothing",
        params: signInProviderParamsSchema,
        querystring: signInCallbackQuerySchema,
        response: { 302: signInRedirectSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const providerId = request.params.provider;
      const { grantId, result } = await service.finish({ userId: user.id, providerId, query: request.query, browser: request.cookies[BROWSER_COOKIE] });
      let next: string | null = null;
      for (const owner of deps.owners) next ??= await owner.signedIn(user.id, grantId, result);
      const target = next ?? SETTINGS;
      return reply.header("cache-control", "no-store").redirect(`${target}${target.includes("?") ? "&" : "?"}${SIGN_IN_RESULT_PARAM}=${result}`, 302);
    },
  );
}
