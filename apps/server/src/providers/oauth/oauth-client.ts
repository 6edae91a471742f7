/** Where a sign-in goes: an issuer (discovered from its /.well-known document) and SAGE's registration there. */
export interface OAuthServer {
  /** The issuer identifier: https://accounts.google.com, https://login.microsoftonline.com/common/v2.0, a Keycloak realm... */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** A fetch of its own (an MCP server's authorization server is reached under the private-address rule). */
  fetch?: typeof globalThis.fetch;
}

/** What a token endpoint answered, with the ID token's claims when it sent one. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives (expires_in), or null when the server did not say. */
  expiresIn: number | null;
  /** The scopes granted, as the server listed them (null: not said, so those asked for). */
  scope: string | null;
  idClaims: { sub: string; email?: string; name?: string; preferredUsername?: string } | null;
}

/**
 * Why a token request failed, sorted for what SAGE does next: `revoked` (invalid_grant: the user withdrew consent,
 * changed their password, or the token aged out) needs a new sign-in; `denied` is the user pressing Cancel; `state`
 * a callback that does not match the flow; `unavailable` (network, 5xx, a malformed answer) is tried again later.
 */
export class OAuthError extends Error {
  constructor(
    readonly reason: "revoked" | "denied" | "state" | "unavailable" | "client",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "OAuthError";
  }
}

export interface OAuthClient {
  readonly issuer: string;
  /** Whether the server has a revocation endpoint (RFC 7009): Google and company servers do; Microsoft does not. */
  readonly canRevoke: boolean;
  authorizationUrl(request: { redirectUri: string; scope: string; state: string; codeChallenge: string; nonce: string; extra?: Record<string, string> }): URL;
  /** Redeems the callback's code (PKCE, state and the ID token's nonce checked); `parameters` go to the token endpoint (Microsoft's `scope`). */
  exchangeCode(callback: URL, checks: { codeVerifier: string; state: string; nonce: string }, parameters?: Record<string, string>): Promise<TokenSet>;
  /** A new access token from the refresh token; `scope` or `resource` (RFC 8707) pick the audience. */
  refresh(refreshToken: string, parameters?: Record<string, string>): Promise<TokenSet>;
  revoke(token: string, hint: "refresh_token" | "access_token"): Promise<void>;
}

export interface PkceSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
  codeChallenge: string;
}

const TIMEOUT_S = 30;

type OpenIdClient = typeof import("openid-client");
let loaded: Promise<OpenIdClient> | undefined;
const openid = () => (loaded ??= import("openid-client"));

/** A random state, nonce and PKCE verifier with its S256 challenge. */
export async function newPkceSecrets(): Promise<PkceSecrets> {
  const client = await openid();
  const codeVerifier = client.randomPKCECodeVerifier();
  return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier) };
}

function classify(error: unknown, client: OpenIdClient): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof client.AuthorizationResponseError) {
    return new OAuthError(error.error === "access_denied" ? "denied" : "unavailable", `authorization response: ${error.error}`, { cause: error });
  }
  if (error instanceof client.ResponseBodyError) {
    if (error.error === "invalid_grant") return new OAuthError("revoked", `token endpoint: invalid_grant`, { cause: error });
    if (error.error === "invalid_client" || error.error === "unauthorized_client")
      return new OAuthError("client", `token endpoint: ${error.error}`, { cause: error });
    return new OAuthError("unavailable", `token endpoint: ${error.error} (${error.status})`, { cause: error });
  }
  const code = (error as { code?: string }).code;
  if (code === "OAUTH_INVALID_RESPONSE" && /state/i.test((error as Error).message)) return new OAuthError("state", (error as Error).message, { cause: error });
  return new OAuthError("unavailable", (error as Error).message ?? String(error), { cause: error });
}

function tokenSet(response: {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  claims(): Record<string, unknown> | undefined;
}): TokenSet {
  const claims = response.claims();
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? null,
    expiresIn: typeof response.expires_in === "number" ? response.expires_in : null,
    scope: response.scope ?? null,
    idClaims: claims
      ? {
          sub: String(claims.sub),
          ...(typeof claims.email === "string" ? { email: claims.email } : {}),
          ...(typeof claims.name === "string" ? { name: claims.name } : {}),
          ...(typeof claims.preferred_username === "string" ? { preferredUsername: claims.preferred_username } : {}),
        }
      : null,
  };
}

/**
 * An OAuth 2.0 / OpenID Connect client (openid-client) for one issuer, its endpoints read from the issuer's discovery
 * document. Only an issuer on this machine may be plain http (a test server, a local Keycloak).
 */
export async function discoverOAuthClient(server: OAuthServer): Promise<OAuthClient> {
  const client = await openid();
  const url = new URL(server.issuer);
  const local = url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  let config: Awaited<ReturnType<OpenIdClient["discovery"]>>;
  try {
    // A public client (no secret, as a dynamically registered MCP client may be) authenticates with PKCE alone.
    config = await client.discovery(url, server.clientId, server.clientSecret, server.clientSecret ? undefined : client.None(), {
      timeout: TIMEOUT_S,
      execute: local ? [client.allowInsecureRequests] : [],
      ...(server.fetch ? { [client.customFetch]: server.fetch as never } : {}),
    });
  } catch (error) {
    throw classify(error, client);
  }
  config.timeout = TIMEOUT_S;
  const metadata = config.serverMetadata();
  return {
    issuer: metadata.issuer,
    canRevoke: Boolean(metadata.revocation_endpoint),
    authorizationUrl(request) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: request.scope,
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: "S256",
        ...request.extra,
      });
    },
    async exchangeCode(callback, checks, parameters) {
      try {
        return tokenSet(
          await client.authorizationCodeGrant(
            config,
            callback,
            { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true },
            parameters,
          ),
        );
      } catch (error) {
        throw classify(error, client);
      }
    },
    async refresh(refreshToken, parameters) {
      try {
        return tokenSet(await client.refreshTokenGrant(config, refreshToken, parameters));
      } catch (error) {
        throw classify(error, client);
      }
    },
    async revoke(token, hint) {
      try {
        await client.tokenRevocation(config, token, { token_type_hint: hint });
      } catch (error) {
        throw classify(error, client);
      }
    },
  };
}
