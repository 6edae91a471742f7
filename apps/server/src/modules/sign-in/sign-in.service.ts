import { createHash } from "node:crypto";
import { OAUTH_ERRORS, OAUTH_SETUP_TEXTS, type OAuthProvider, type OAuthProviderId } from "@sage/contracts/oauth";
import { AppError, badRequest } from "../../http/app-error.ts";
import { OAuthError, newPkceSecrets, type OAuthClient, type OAuthServer, type TokenSet } from "../../providers/oauth/oauth-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { ANY_AUDIENCE, openTokens, sealTokens, type GrantTokens } from "./grant-tokens.ts";
import { OPENID_SCOPES, type SignInProvider } from "./oauth-presets.ts";
import type { GrantRow, SignInRepo } from "./sign-in.repo.ts";

/** An access token is refreshed when it has less than this left: a sync or a send never starts on a dying token. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** A refresh in one process holds off the others this long (then another may try). */
const REFRESH_LEASE_MS = 30_000;
/** A token endpoint that gives no lifetime: taken as an hour, Google's and Microsoft's usual. */
const DEFAULT_LIFETIME_S = 3600;
/** A sign-in must come back from the provider within this. */
export const FLOW_LIFETIME_MS = 10 * 60_000;

/** The sign-in ended at the provider (revoked, password changed, consent withdrawn): the user signs in again. */
export class SignInNeededError extends Error {
  constructor(readonly grantId: number) {
    super("the sign-in must be done again");
    this.name = "SignInNeededError";
  }
}

/** The provider could not be reached or answered oddly: tried again later, nothing to do for the user. */
export class SignInUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SignInUnavailableError";
  }
}

/** Who signed in, from the ID token: `login` is the email claim, else preferred_username (the IMAP/SMTP login). */
export interface SignedInIdentity {
  subject: string;
  login: string;
  displayName: string | null;
}

export interface GrantInfo {
  id: number;
  userId: number;
  provider: string;
  status: "pending" | "ok" | "sign-in-needed";
  login: string | null;
  displayName: string | null;
}

export const hashOf = (value: string) => createHash("sha256").update(value).digest("base64url");
const grantInfo = (row: GrantRow): GrantInfo => ({
  id: row.id,
  userId: row.userId,
  provider: row.provider,
  status: row.status,
  login: row.login,
  displayName: row.displayName,
});

export function createSignInService(deps: {
  repo: SignInRepo;
  box: SecretBox;
  providers: Record<string, SignInProvider>;
  discover(server: OAuthServer): Promise<OAuthClient>;
  now(): number;
  warn(message: string, error?: unknown): void;
}) {
  const { repo, box } = deps;
  /** The configured providers, and those registered while running (an MCP server's authorization server). */
  const providers = new Map(Object.entries(deps.providers));
  const clients = new Map<string, Promise<OAuthClient>>();
  /** Refreshes under way in this process, by grant and audience: callers at the same moment share one. */
  const refreshing = new Map<string, Promise<string>>();

  function providerOf(id: string): SignInProvider {
    const provider = providers.get(id);
    if (!provider) throw badRequest(OAUTH_ERRORS.unknownProvider, "validation_error");
    return provider;
  }

  function configured(id: string): SignInProvider & { registration: NonNullable<SignInProvider["registration"]> } {
    const provider = providerOf(id);
    if (!provider.registration) throw badRequest(OAUTH_SETUP_TEXTS[id as OAuthProviderId] ?? OAUTH_ERRORS.unknownProvider, "sign_in_not_configured");
    return provider as SignInProvider & { registration: NonNullable<SignInProvider["registration"]> };
  }

  /** The provider's client, its discovery document read once (a failed read is tried again next time). */
  function clientOf(provider: SignInProvider): Promise<OAuthClient> {
    let client = clients.get(provider.id);
    if (!client) {
      client = deps.discover({ ...provider.registration! });
      clients.set(provider.id, client);
      client.catch(() => clients.delete(provider.id));
    }
    return client;
  }

  async function reachableClient(provider: SignInProvider): Promise<OAuthClient> {
    try {
      return await clientOf(provider);
    } catch (error) {
      deps.warn(`${provider.name}'s discovery document could not be read`, error);
      throw new AppError("sign_in_unavailable", 502, `${provider.name}'s sign-in could not be reached. Try again in a moment.`);
    }
  }

  const entryFrom = (set: TokenSet) => ({ token: set.accessToken, expiresAt: deps.now() + (set.expiresIn ?? DEFAULT_LIFETIME_S) * 1000, scope: set.scope });
  const audienceKey = (provider: SignInProvider, audience: string) => (provider.tokenPerAudience ? audience : ANY_AUDIENCE);

  /**
   * What the token endpoint is told for one audience: its resource, or its scopes. Redeeming the code also asks for
   * the ID token's scopes and offline_access (the refresh token); a refresh asks for the audience's scopes alone, as
   * Microsoft's documentation does (the refresh token already has the rest).
   */
  function audienceParameters(provider: SignInProvider, audience: string, redeeming = false): Record<string, string> {
    if (!provider.tokenPerAudience) return {};
    const wanted = provider.audiences[audience];
    if (!wanted) throw new Error(`no audience ${audience} at ${provider.id}`);
    if (wanted.resource) return { resource: wanted.resource };
    const extra = redeeming ? provider.scopes.filter((scope) => OPENID_SCOPES.includes(scope) || scope === "offline_access") : [];
    return { scope: [...extra, ...wanted.scopes].join(" ") };
  }

  async function refreshOnce(grant: GrantRow, provider: SignInProvider, audience: string): Promise<string> {
    const key = audienceKey(provider, audience);
    const deadline = Date.now() + REFRESH_LEASE_MS + 5_000;
    for (let row: GrantRow | undefined = grant; ; row = await repo.grant(grant.id)) {
      if (!row || row.status === "sign-in-needed") throw new SignInNeededError(grant.id);
      const tokens = openTokens(box, row.tokens);
      if (!tokens) throw new SignInNeededError(grant.id);
      const entry = tokens.access[key];
      if (entry && entry.expiresAt - deps.now() > REFRESH_MARGIN_MS) return entry.token;
      if (!tokens.refreshToken) {
        await repo.updateGrant(grant.id, { status: "sign-in-needed" });
        throw new SignInNeededError(grant.id);
      }
      const wallClock = Date.now();
      if (await repo.claimRefresh(grant.id, wallClock, wallClock + REFRESH_LEASE_MS)) {
        try {
          const client = await clientOf(provider);
          const set = await client.refresh(tokens.refreshToken, audienceParameters(provider, audience));
          const next: GrantTokens = { refreshToken: set.refreshToken ?? tokens.refreshToken, access: { ...tokens.access, [key]: entryFrom(set) } };
          await repo.updateGrant(grant.id, { tokens: sealTokens(box, next), refreshLeaseUntilMs: null });
          return set.accessToken;
        } catch (error) {
          if (error instanceof OAuthError && error.reason === "revoked") {
            // The grant is over: its tokens are worth nothing, and the user is asked to sign in again.
            await repo.updateGrant(grant.id, { status: "sign-in-needed", tokens: null, refreshLeaseUntilMs: null });
            throw new SignInNeededError(grant.id);
          }
          await repo.updateGrant(grant.id, { refreshLeaseUntilMs: null });
          throw new SignInUnavailableError(`${provider.name}'s token endpoint could not refresh the sign-in`, { cause: error });
        }
      }
      // Another request or process is refreshing this grant: its new token is read once it is stored.
      if (Date.now() > deadline) throw new SignInUnavailableError("a refresh of this sign-in did not finish");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function revokeTokens(provider: SignInProvider, tokens: GrantTokens): Promise<void> {
    if (!provider.registration) return;
    const client = await clientOf(provider);
    if (!client.canRevoke) return;
    // Revoking the refresh token ends the grant and its access tokens (RFC 7009 section 2.1); without one, each access token.
    const targets: Array<[string, "refresh_token" | "access_token"]> = tokens.refreshToken
      ? [[tokens.refreshToken, "refresh_token"]]
      : Object.values(tokens.access).map((entry) => [entry.token, "access_token"]);
    for (const [token, hint] of targets) await client.revoke(token, hint);
  }

  return {
    /** GET /api/oauth/providers. */
    list(): OAuthProvider[] {
      return (["google", "microsoft", "oidc"] as const).map((id) => {
        const provider = providers.get(id)!;
        return { id, name: provider.name, configured: Boolean(provider.registration), setup: provider.registration ? null : OAUTH_SETUP_TEXTS[id] };
      });
    },

    provider: providerOf,

    /**
     * Adds (or replaces) a provider while running: an MCP server's authorization server, discovered from its
     * protected-resource metadata, with the client SAGE registered there. Its id is "<family>:<name>" ("mcp:12"), and
     * its start and callback routes are the family's (/api/oauth/mcp/...).
     */
    registerProvider(provider: SignInProvider): void {
      if (!/^[a-z][a-z0-9-]*:[\w.-]+$/.test(provider.id)) throw new Error(`a registered provider's id is <family>:<name>, not ${provider.id}`);
      providers.set(provider.id, provider);
      clients.delete(provider.id);
    },

    /** The provider, refusing one the operator has not set up (400, saying what to set). */
    configured,

    createGrant: async (userId: number, providerId: string) => repo.insertGrant(userId, configured(providerId).id),

    grant: async (grantId: number): Promise<GrantInfo | null> => {
      const row = await repo.grant(grantId);
      return row ? grantInfo(row) : null;
    },

    grantsOf: async (userId: number): Promise<GrantInfo[]> => (await repo.grantsOf(userId)).map(grantInfo),

    /** Whether the grant was given every scope of an audience (Google lets the user untick the calendar). */
    async covers(grantId: number, audience: string): Promise<boolean> {
      const row = await repo.grant(grantId);
      if (!row) return false;
      const provider = providerOf(row.provider);
      const wanted = provider.audiences[audience];
      if (!wanted) return false;
      if (provider.tokenPerAudience || !row.scopes) return true;
      const granted = row.scopes.split(" ");
      return wanted.scopes.every((scope) => granted.includes(scope));
    },

    /**
     * Starts a sign-in: the flow is kept (state hashed, PKCE verifier and nonce sealed, tied to the browser), and the
     * provider's authorization address is answered, asking for code + PKCE (S256) + state + nonce.
     */
    async start(request: { userId: number; grantId: number; redirectUri: string; browser: string; loginHint?: string }): Promise<URL> {
      const row = await repo.grant(request.grantId);
      if (!row || row.userId !== request.userId) throw new AppError("not_found", 404, OAUTH_ERRORS.stateInvalid);
      const provider = configured(row.provider);
      const client = await reachableClient(provider);
      const secrets = await newPkceSecrets();
      await repo.removeExpiredFlows(Date.now());
      await repo.insertFlow({
        stateHash: hashOf(secrets.state),
        userId: request.userId,
        grantId: row.id,
        secrets: box.seal(JSON.stringify({ codeVerifier: secrets.codeVerifier, nonce: secrets.nonce })),
        browserHash: hashOf(request.browser),
        redirectUri: request.redirectUri,
        expiresAtMs: Date.now() + FLOW_LIFETIME_MS,
      });
      return client.authorizationUrl({
        redirectUri: request.redirectUri,
        scope: provider.scopes.join(" "),
        state: secrets.state,
        nonce: secrets.nonce,
        codeChallenge: secrets.codeChallenge,
        extra: { ...provider.authorizationParameters, ...(request.loginHint ? { login_hint: request.loginHint } : {}) },
      });
    },

    /**
     * The provider's callback: the state must name a flow of this user, started in this browser, not yet used and not
     * expired (400 otherwise, changing nothing). The code is redeemed and the tokens sealed into the grant.
     * Answers how it ended; the flow is used up whatever happens after the state checks.
     */
    async finish(request: {
      userId: number;
      providerId: string;
      query: Record<string, string>;
      browser: string | undefined;
    }): Promise<{ grantId: number; result: "connected" | "cancelled" | "failed" | "other-account" }> {
      const state = request.query.state;
      const flow = state ? await repo.flow(hashOf(state)) : undefined;
      if (!flow || flow.userId !== request.userId || flow.expiresAtMs < Date.now()) throw badRequest(OAUTH_ERRORS.stateInvalid, "sign_in_state_invalid");
      if (!request.browser || hashOf(request.browser) !== flow.browserHash) throw badRequest(OAUTH_ERRORS.browserMismatch, "sign_in_state_invalid");
      const grant = await repo.grant(flow.grantId);
      // The path names the provider, or its family for providers registered per server ("mcp" for "mcp:12").
      if (!grant || (grant.provider !== request.providerId && !grant.provider.startsWith(`${request.providerId}:`)))
        throw badRequest(OAUTH_ERRORS.stateInvalid, "sign_in_state_invalid");
      // Used once: of two callbacks with the same state, only one gets past this.
      if (!(await repo.consumeFlow(flow.stateHash))) throw badRequest(OAUTH_ERRORS.stateInvalid, "sign_in_state_invalid");
      const provider = configured(grant.provider);
      if (request.query.error) {
        if (request.query.error !== "access_denied") deps.warn(`${provider.name} ended a sign-in with ${request.query.error}`);
        return { grantId: grant.id, result: request.query.error === "access_denied" ? "cancelled" : "failed" };
      }
      const opened = box.open(flow.secrets);
      if (!opened) return { grantId: grant.id, result: "failed" };
      const { codeVerifier, nonce } = JSON.parse(opened) as { codeVerifier: string; nonce: string };
      const callback = new URL(flow.redirectUri);
      for (const [name, value] of Object.entries(request.query)) callback.searchParams.set(name, value);
      let set: TokenSet;
      try {
        const client = await clientOf(provider);
        const firstAudience = Object.keys(provider.audiences)[0]!;
        set = await client.exchangeCode(callback, { codeVerifier, state: state!, nonce }, audienceParameters(provider, firstAudience, true));
      } catch (error) {
        deps.warn(`${provider.name} did not complete a sign-in (grant ${grant.id})`, error);
        return { grantId: grant.id, result: error instanceof OAuthError && error.reason === "denied" ? "cancelled" : "failed" };
      }
      const claims = set.idClaims;
      const login = claims?.email ?? claims?.preferredUsername;
      if (!claims || !login) {
        deps.warn(`${provider.name}'s ID token named no email or preferred_username (grant ${grant.id})`);
        return { grantId: grant.id, result: "failed" };
      }
      if (grant.subject && grant.subject !== claims.sub) {
        // Signed in as someone else than the account's mailbox: nothing changes, and the new tokens are given back.
        await revokeTokens(provider, { refreshToken: set.refreshToken, access: { [ANY_AUDIENCE]: entryFrom(set) } }).catch((error: unknown) =>
          deps.warn(`the tokens of a sign-in as another account could not be revoked at ${provider.name}`, error),
        );
        return { grantId: grant.id, result: "other-account" };
      }
      const key = provider.tokenPerAudience ? Object.keys(provider.audiences)[0]! : ANY_AUDIENCE;
      const tokens: GrantTokens = { refreshToken: set.refreshToken, access: { [key]: entryFrom(set) } };
      await repo.updateGrant(grant.id, {
        status: "ok",
        subject: claims.sub,
        login,
        displayName: claims.name ?? null,
        scopes: set.scope ?? provider.scopes.join(" "),
        tokens: sealTokens(box, tokens),
        refreshLeaseUntilMs: null,
      });
      return { grantId: grant.id, result: "connected" };
    },

    /**
     * A working access token for the audience ("mail", "calendar"): the stored one while it has more than five minutes
     * left, else a new one from the refresh token. Throws SignInNeededError when the provider refuses the refresh
     * (the grant then shows "sign-in-needed"), SignInUnavailableError when it cannot be reached.
     */
    async accessToken(grantId: number, audience: string): Promise<string> {
      const grant = await repo.grant(grantId);
      if (!grant || grant.status !== "ok") throw new SignInNeededError(grantId);
      const provider = providerOf(grant.provider);
      const key = `${grantId}:${audienceKey(provider, audience)}`;
      let pending = refreshing.get(key);
      if (!pending) {
        pending = refreshOnce(grant, provider, audience).finally(() => refreshing.delete(key));
        refreshing.set(key, pending);
      }
      return pending;
    },

    /**
     * Ends the grant: its tokens are revoked at the provider (when it has a revocation endpoint) and forgotten. A
     * provider that cannot be reached is logged; the grant is forgotten all the same (the user asked for it gone).
     */
    async revoke(grantId: number): Promise<void> {
      const row = await repo.grant(grantId);
      if (!row) return;
      const tokens = openTokens(box, row.tokens);
      const provider = providers.get(row.provider);
      if (tokens && provider) {
        try {
          await revokeTokens(provider, tokens);
        } catch (error) {
          deps.warn(`the sign-in of grant ${grantId} could not be revoked at ${provider.name}`, error);
        }
      }
      await repo.removeGrant(grantId);
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
