import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { EXTERNAL_TOOL_TEXTS } from "@sage/contracts/external-tools";
import type { McpSignInSettings } from "../../providers/mcp/mcp-config.ts";
import { SignInNeededError, type ExternalGrants, type FlowTexts, type GrantTokens } from "../sign-in/sign-in.module.ts";
import type { ToolServersRepo } from "./tool-servers.repo.ts";

/** An access token is refreshed when it has less than this left, as the sign-in module does (decision 070). */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** A token endpoint that gives no lifetime: taken as an hour. */
const DEFAULT_LIFETIME_S = 3600;
/** What the grants hold is for MCP servers. */
export const MCP_GRANT_PROVIDER = "mcp";
/** The callback every MCP server's sign-in comes back to (the redirect URI SAGE registers). */
export const MCP_CALLBACK_PATH = "/api/tools/servers/oauth/callback";
/** SAGE's Client ID Metadata Document (SEP-991): its address is SAGE's client id where the server takes one. */
export const MCP_CLIENT_METADATA_PATH = "/api/tools/oauth/client-metadata.json";

/** The SDK's sign-in functions, loaded with the SDK on first use. */
const loadAuth = () => import("@modelcontextprotocol/sdk/client/auth.js");

/** What SAGE keeps sealed beside a grant's tokens for one server: its registration, what discovery found, the last challenge. */
interface ServerGrantData {
  client?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  /** The server's last 401/403 challenge: the scope to ask for (SEP-835) and where its metadata is. */
  challenge?: { scope?: string; resourceMetadataUrl?: string };
  /** The authorization server that issued the tokens (the SDK binds them to it) and their type. */
  tokenIssuer?: string;
  redirectUri?: string;
}

/** A remote server as its sign-in needs it. */
export interface SignInServer {
  userId: number;
  id: string;
  url: string;
  /** The administrator's registration with the server's authorization server (mcp.json `oauth`), if any. */
  oauth?: McpSignInSettings;
}

const words: FlowTexts = {
  stateInvalid: "This sign-in link has expired or was already used. Start again from Settings > Tools.",
  browserMismatch: "This sign-in was started in another browser. Start again from Settings > Tools, in this browser.",
};

type Mode =
  | { kind: "connection" }
  | { kind: "start"; state: string; captured: { url?: URL; verifier?: string } }
  | { kind: "finish"; verifier: string; redirectUri: string };

/**
 * Remote MCP servers' sign-in (decision 080): the MCP SDK runs the authorization (protected-resource metadata,
 * the authorization server's metadata, Client ID Metadata Document or dynamic registration or the administrator's
 * client id, PKCE, `resource`, the scope the server asked for), and what it keeps goes into a grant of the sign-in
 * module (decision 070): tokens and registration sealed, refreshed once per grant at a time, the flow tied to the
 * browser that started it and used once. Each user's grant is theirs: another user's connection never sees it.
 */
export function createServerSignIns(deps: {
  grants: ExternalGrants;
  repo: ToolServersRepo;
  /** Where the sign-in is reached under the private-address rule. */
  fetchFor(server: SignInServer): FetchLike;
  /** SAGE_PUBLIC_URL: the callback's origin when set; an https one also makes SAGE's client metadata document its client id. */
  publicUrl: string | null;
  /** Where SAGE's client metadata document is served when not at the public address (it must be https). */
  clientMetadataUrl?: string | null;
  now?: () => number;
  warn(message: string, error?: unknown): void;
}) {
  const now = deps.now ?? Date.now;
  const metadataUrl =
    deps.clientMetadataUrl ?? (deps.publicUrl?.startsWith("https://") ? `${deps.publicUrl.replace(/\/$/, "")}${MCP_CLIENT_METADATA_PATH}` : undefined);
  /** The callback a connection names (it never sends anyone there: a sign-in starts from Settings > Tools). */
  const quietRedirect = `${deps.publicUrl?.replace(/\/$/, "") ?? "http://localhost"}${MCP_CALLBACK_PATH}`;

  async function grantOf(userId: number, serverId: string): Promise<number> {
    const found = await deps.repo.grantOf(userId, serverId);
    if (found !== undefined) return found;
    const grantId = await deps.grants.create(userId, MCP_GRANT_PROVIDER);
    return deps.repo.linkGrant(userId, serverId, grantId);
  }

  const clientMetadata = (redirectUri: string): OAuthClientMetadata => ({
    client_name: "SAGE",
    client_uri: deps.publicUrl ?? undefined,
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });

  /** The SDK's view of one user's sign-in to one server, in one of its three moments. */
  function providerFor(server: SignInServer, grantId: number, mode: Mode, origin?: string): OAuthClientProvider {
    const data = () => deps.grants.data<ServerGrantData>(grantId).then((value) => value ?? {});
    const update = async (change: (current: ServerGrantData) => ServerGrantData) => deps.grants.storeData(grantId, change(await data()));
    // Always one: the SDK takes a provider without a callback for a machine's client_credentials sign-in.
    const redirect = mode.kind === "finish" ? mode.redirectUri : origin ? `${origin}${MCP_CALLBACK_PATH}` : quietRedirect;
    const configured = server.oauth?.clientId
      ? { client_id: server.oauth.clientId, ...(server.oauth.clientSecret ? { client_secret: server.oauth.clientSecret } : {}) }
      : undefined;

    async function refreshed(): Promise<GrantTokens | null> {
      const current = await deps.grants.tokens(grantId);
      if (!current) return null;
      const fresh = (tokens: GrantTokens) => (tokens.access["*"]?.expiresAt ?? 0) - now() > REFRESH_MARGIN_MS;
      if (fresh(current) || !current.refreshToken) return current;
      try {
        return await deps.grants.refresh(grantId, fresh, async (tokens) => {
          const { refreshAuthorization } = await loadAuth();
          const stored = await data();
          const discovery = stored.discovery;
          const client = configured ?? stored.client;
          if (!discovery || !client) throw new SignInNeededError(grantId);
          try {
            const set = await refreshAuthorization(discovery.authorizationServerUrl, {
              metadata: discovery.authorizationServerMetadata,
              clientInformation: client,
              refreshToken: tokens.refreshToken!,
              // RFC 8707: the token is for this server, as at sign-in.
              ...(discovery.resourceMetadata ? { resource: new URL(discovery.resourceMetadata.resource) } : {}),
              fetchFn: deps.fetchFor(server),
            });
            return tokensFrom(set, tokens.refreshToken);
          } catch (error) {
            // invalid_grant (revoked, expired): the sign-in is over; anything else is tried again at the next use.
            if ((error as { constructor?: { errorCode?: string } }).constructor?.errorCode === "invalid_grant") throw new SignInNeededError(grantId);
            throw error;
          }
        });
      } catch (error) {
        if (error instanceof SignInNeededError) return null;
        deps.warn("refreshing an MCP server's sign-in failed; the stored token is tried", error);
        return current;
      }
    }

    function tokensFrom(set: OAuthTokens, previousRefresh: string | null): GrantTokens {
      return {
        refreshToken: set.refresh_token ?? previousRefresh,
        access: { "*": { token: set.access_token, expiresAt: now() + (set.expires_in ?? DEFAULT_LIFETIME_S) * 1000, scope: set.scope ?? null } },
      };
    }

    return {
      get redirectUrl() {
        return redirect;
      },
      clientMetadataUrl: metadataUrl,
      get clientMetadata() {
        return clientMetadata(redirect);
      },
      state: () => (mode.kind === "start" ? mode.state : randomBytes(24).toString("base64url")),
      async clientInformation() {
        if (configured) return configured;
        const stored = (await data()).client;
        // A connection never registers SAGE: that happens when the user presses Sign in (with the right callback).
        if (!stored && mode.kind === "connection") throw await signInNeeded();
        return stored;
      },
      saveClientInformation: async (client) => update((current) => ({ ...current, client })),
      async tokens() {
        const tokens = await refreshed();
        if (!tokens) return undefined;
        const entry = tokens.access["*"];
        if (!entry) return undefined;
        const { tokenIssuer } = await data();
        return {
          access_token: entry.token,
          token_type: "Bearer",
          expires_in: Math.max(0, Math.floor((entry.expiresAt - now()) / 1000)),
          ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
          ...(entry.scope ? { scope: entry.scope } : {}),
          ...(tokenIssuer ? { issuer: tokenIssuer } : {}),
        };
      },
      async saveTokens(set) {
        const previous = await deps.grants.tokens(grantId);
        await deps.grants.storeTokens(grantId, tokensFrom(set, previous?.refreshToken ?? null), set.scope);
        await update((current) => ({ ...current, tokenIssuer: set.issuer ?? current.tokenIssuer }));
      },
      async redirectToAuthorization(url) {
        if (mode.kind === "start") {
          mode.captured.url = url;
          return;
        }
        // A connection cannot send anyone anywhere: the user signs in from Settings > Tools.
        throw await signInNeeded();
      },
      saveCodeVerifier(verifier) {
        if (mode.kind === "start") mode.captured.verifier = verifier;
      },
      codeVerifier: () => {
        if (mode.kind !== "finish") throw new Error("no sign-in is being finished");
        return mode.verifier;
      },
      async invalidateCredentials(scope) {
        if (scope === "all" || scope === "tokens") await deps.grants.endTokens(grantId);
        if (scope === "all" || scope === "client" || scope === "discovery") {
          await update((current) => ({
            ...current,
            ...(scope !== "discovery" ? { client: undefined } : {}),
            ...(scope !== "client" ? { discovery: undefined } : {}),
          }));
        }
      },
      saveDiscoveryState: async (discovery) => update((current) => ({ ...current, discovery })),
      discoveryState: async () => (await data()).discovery,
    };

    /** The SDK's UnauthorizedError, saying whether this user had signed in before ("Sign in again"). */
    async function signInNeeded() {
      const { UnauthorizedError } = await loadAuth();
      const info = await deps.grants.info(grantId);
      return new UnauthorizedError(info?.status === "sign-in-needed" ? "Sign in again" : "Sign in needed");
    }
  }

  return {
    clientMetadataUrl: metadataUrl,
    /** SAGE's client metadata document (SEP-991), at the address that is its client id. */
    clientMetadataDocument: (origin: string) => ({
      client_id: metadataUrl ?? `${origin}${MCP_CLIENT_METADATA_PATH}`,
      ...clientMetadata(`${deps.publicUrl?.replace(/\/$/, "") ?? origin}${MCP_CALLBACK_PATH}`),
      token_endpoint_auth_method: "none",
    }),

    /** Where the user's browser goes to sign in to a server (a SAGE address that sends it on). */
    signInUrl: (serverId: string) => `/api/tools/servers/${encodeURIComponent(serverId)}/sign-in`,

    /** The connection's side: its tokens (refreshed on use), and a sign-in-needed when there are none. */
    async connectionAuth(server: SignInServer): Promise<{ provider: OAuthClientProvider; fetch: FetchLike; signedIn(): Promise<boolean> }> {
      const grantId = await grantOf(server.userId, server.id);
      const base = deps.fetchFor(server);
      const { extractWWWAuthenticateParams } = await loadAuth();
      // The server's challenge (401, or 403 asking for more scope) is kept: the next sign-in asks for that scope.
      const fetch: FetchLike = async (input, init) => {
        const response = await base(input, init);
        if (response.status === 401 || response.status === 403) {
          const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
          if (scope || resourceMetadataUrl) {
            const current = (await deps.grants.data<ServerGrantData>(grantId)) ?? {};
            await deps.grants.storeData(grantId, { ...current, challenge: { scope, resourceMetadataUrl: resourceMetadataUrl?.href } });
          }
        }
        return response;
      };
      return {
        provider: providerFor(server, grantId, { kind: "connection" }),
        fetch,
        signedIn: async () => (await deps.grants.info(grantId))?.status === "ok",
      };
    },

    /**
     * Starts the user's sign-in (GET /api/tools/servers/{id}/sign-in): discovery and registration run now, and the
     * answer is the authorization server's address (PKCE S256, state, `resource`, the scope asked for); or null
     * when the stored sign-in could simply be refreshed.
     */
    async start(server: SignInServer, request: { origin: string; browser: string }): Promise<URL | null> {
      const grantId = await grantOf(server.userId, server.id);
      const state = randomBytes(24).toString("base64url");
      const captured: { url?: URL; verifier?: string } = {};
      const origin = deps.publicUrl?.replace(/\/$/, "") ?? request.origin;
      const provider = providerFor(server, grantId, { kind: "start", state, captured }, origin);
      const { auth } = await loadAuth();
      const challenge = (await deps.grants.data<ServerGrantData>(grantId))?.challenge;
      const result = await auth(provider, {
        serverUrl: server.url,
        ...(challenge?.scope ? { scope: challenge.scope } : {}),
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) } : {}),
        fetchFn: deps.fetchFor(server),
      });
      if (result === "AUTHORIZED" || !captured.url || !captured.verifier) return null;
      await deps.grants.startFlow({
        userId: server.userId,
        grantId,
        state,
        secrets: { verifier: captured.verifier },
        browser: request.browser,
        redirectUri: `${origin}${MCP_CALLBACK_PATH}`,
      });
      return captured.url;
    },

    /** The grant a callback's state names, used up now (a wrong or used state is a 400 that changes nothing). */
    finishFlow: (request: { userId: number; state: string | undefined; browser: string | undefined }) => deps.grants.finishFlow({ ...request, texts: words }),

    /** The server whose grant it is. */
    serverOf: (userId: number, grantId: number) => deps.repo.serverOfGrant(userId, grantId),

    /** Redeems the code at the token endpoint (PKCE verifier, `resource`, SAGE's registration) and keeps the tokens. */
    async redeem(server: SignInServer, grantId: number, flow: { code: string; verifier: string; redirectUri: string }) {
      const provider = providerFor(server, grantId, { kind: "finish", verifier: flow.verifier, redirectUri: flow.redirectUri });
      const { auth } = await loadAuth();
      const challenge = (await deps.grants.data<ServerGrantData>(grantId))?.challenge;
      const result = await auth(provider, {
        serverUrl: server.url,
        authorizationCode: flow.code,
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) } : {}),
        fetchFn: deps.fetchFor(server),
      });
      if (result !== "AUTHORIZED") throw new Error("the authorization server did not give tokens");
    },

    /**
     * Ends the user's sign-in to a server: its refresh token (else its access token) is revoked at the authorization
     * server's revocation endpoint (RFC 7009) when it has one, and the grant is forgotten either way.
     */
    async forget(userId: number, server: SignInServer) {
      const grantId = await deps.repo.grantOf(userId, server.id);
      if (grantId === undefined) return;
      try {
        const [tokens, data] = await Promise.all([deps.grants.tokens(grantId), deps.grants.data<ServerGrantData>(grantId)]);
        const endpoint = (data?.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
        const client = (server.oauth?.clientId ? { client_id: server.oauth.clientId, client_secret: server.oauth.clientSecret } : data?.client) as
          { client_id: string; client_secret?: string } | undefined;
        const token = tokens?.refreshToken ?? tokens?.access["*"]?.token;
        if (endpoint && client && token) await revoke(deps.fetchFor(server), endpoint, client, token, tokens?.refreshToken ? "refresh_token" : "access_token");
      } catch (error) {
        deps.warn("revoking an MCP server's sign-in failed; it is forgotten all the same", error);
      }
      await deps.grants.remove(grantId);
      await deps.repo.unlinkGrant(userId, server.id);
    },

    texts: { failed: EXTERNAL_TOOL_TEXTS.signInFailed },
  };
}

/** RFC 7009: the token endpoint's client authentication, then `token` and its hint. */
async function revoke(fetch: FetchLike, endpoint: string, client: { client_id: string; client_secret?: string }, token: string, hint: string) {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (client.client_secret)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;
  else body.set("client_id", client.client_id);
  const response = await fetch(endpoint, { method: "POST", headers, body: body.toString() });
  if (!response.ok) throw new Error(`the revocation endpoint answered ${response.status}`);
}

export type ServerSignIns = ReturnType<typeof createServerSignIns>;
