import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { EXTERNAL_TOOL_TEXTS, serverParamsSchema } from "@sage/contracts/external-tools";
import { SIGN_IN_RESULT_PARAM, signInCallbackQuerySchema, signInRedirectSchema } from "@sage/contracts/oauth";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import { always } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ServerDirectory } from "./server-directory.ts";
import { MCP_CALLBACK_PATH, MCP_CLIENT_METADATA_PATH, type ServerSignIns } from "./server-sign-in.ts";

/** Ties a server's sign-in to the browser that started it (decision 070's rule): an HttpOnly cookie, its hash kept with the flow. */
const BROWSER_COOKIE = "sage_mcp_browser";
const COOKIE_PATH = "/api/tools/servers/";
const SETTINGS = "/settings?section=tools";

const clientMetadataSchema = z.looseObject({ client_id: z.string(), redirect_uris: z.array(z.string()) });

/**
 * A remote server's sign-in (decision 080): GET /api/tools/servers/{id}/sign-in sends the browser to the server's
 * authorization server; GET /api/tools/servers/oauth/callback comes back, redeems the code and connects the server,
 * then sends the browser to Settings > Tools with how it ended (`signIn=connected|cancelled|failed`).
 * GET /api/tools/oauth/client-metadata.json is SAGE's client metadata document, public, as a client id must be.
 */
export function registerServerSignInRoutes(
  app: FastifyInstance,
  deps: { signIns: ServerSignIns; directory: ServerDirectory; secureCookies: boolean; warn(message: string, error?: unknown): void },
) {
  const { signIns, directory } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const origin = (request: FastifyRequest) => `${deps.secureCookies ? "https" : request.protocol}://${request.host}`;
  const back = (result: string) => `${SETTINGS}&${SIGN_IN_RESULT_PARAM}=${result}`;

  api.get(
    MCP_CLIENT_METADATA_PATH,
    {
      schema: {
        summary: "SAGE's OAuth client metadata document (its address is SAGE's client id at servers that take one)",
        response: { 200: clientMetadataSchema },
      },
    },
    async (request, reply) => reply.header("cache-control", "public, max-age=3600").send(signIns.clientMetadataDocument(origin(request))),
  );

  api.get(
    "/api/tools/servers/:serverId/sign-in",
    {
      config: { invalidInput: { path: always(() => notFound(EXTERNAL_TOOL_TEXTS.serverNotFound, "tool_server_not_found")) } },
      schema: {
        summary: "Starts the user's sign-in to a remote tool server: 302 to its authorization server (PKCE S256, state, resource)",
        params: serverParamsSchema,
        response: { 302: signInRedirectSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const server = await directory.find(user.id, request.params.serverId);
      if (!server?.signsIn || !server.url) throw notFound(EXTERNAL_TOOL_TEXTS.serverNotFound, "tool_server_not_found");
      let browser = request.cookies[BROWSER_COOKIE];
      if (!browser || browser.length < 20) {
        browser = randomBytes(32).toString("base64url");
        reply.setCookie(BROWSER_COOKIE, browser, { path: COOKIE_PATH, httpOnly: true, sameSite: "lax", secure: deps.secureCookies, maxAge: 30 * 86_400 });
      }
      let url: URL | null;
      try {
        url = await signIns.start(
          { userId: user.id, id: server.id, url: server.url, ...(server.oauth ? { oauth: server.oauth } : {}) },
          { origin: origin(request), browser },
        );
      } catch (error) {
        deps.warn(`the sign-in to the tool server ${server.name} could not start`, error);
        throw new AppError("sign_in_unavailable", 502, `${server.name}'s sign-in could not be reached: ${(error as Error).message}`);
      }
      if (!url) {
        // The stored sign-in was refreshed: nothing to do at the authorization server.
        await server.connection.restart();
        return reply.header("cache-control", "no-store").redirect(back("connected"), 302);
      }
      return reply.header("cache-control", "no-store").redirect(url.href, 302);
    },
  );

  api.get(
    MCP_CALLBACK_PATH,
    {
      config: {
        invalidInput: {
          query: always(() => badRequest("This sign-in link has expired or was already used. Start again from Settings > Tools.", "sign_in_state_invalid")),
        },
      },
      schema: {
        summary: "Where a tool server's authorization server sends the browser back: 302 to Settings > Tools; a wrong or used state is 400",
        querystring: signInCallbackQuerySchema,
        response: { 302: signInRedirectSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const query = request.query as Record<string, string | undefined>;
      const flow = await signIns.finishFlow({ userId: user.id, state: query.state, browser: request.cookies[BROWSER_COOKIE] });
      const serverId = await signIns.serverOf(user.id, flow.grantId);
      const server = serverId === undefined ? undefined : await directory.find(user.id, serverId);
      const done = (result: string) => reply.header("cache-control", "no-store").redirect(back(result), 302);
      if (!server?.url || !flow.secrets?.verifier) return done("failed");
      if (query.error || !query.code) {
        if (query.error && query.error !== "access_denied") deps.warn(`the tool server ${server.name}'s sign-in ended with ${query.error}`);
        return done(query.error === "access_denied" ? "cancelled" : "failed");
      }
      try {
        await signIns.redeem({ userId: user.id, id: server.id, url: server.url, ...(server.oauth ? { oauth: server.oauth } : {}) }, flow.grantId, {
          code: query.code,
          verifier: flow.secrets.verifier,
          redirectUri: flow.redirectUri,
        });
      } catch (error) {
        deps.warn(`the tool server ${server.name}'s authorization server did not complete the sign-in`, error);
        return done("failed");
      }
      await server.connection.restart();
      return done("connected");
    },
  );
}
