import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A person the identity server knows: they sign in with their login name (any password) on its login page. */
export interface OAuthTestUser {
  login: string;
  email: string;
  name: string;
  /** The ID token's preferred_username (Microsoft's UPN); the login name when absent. */
  preferredUsername?: string;
  /** Without an `email` claim (some company servers): the login name then comes from preferred_username. */
  noEmail?: boolean;
}

export interface OAuthTestClient {
  id: string;
  secret: string;
  redirectUris: string[];
}

export interface OAuthTestServer {
  issuer: string;
  /** RFC 7662 introspection with a resource server's credentials in the URL (what Dovecot is given). */
  introspectionUrl: string;
  /** Asks the introspection endpoint as a resource server does: is this bearer token active, and whose is it? */
  introspect(token: string): Promise<{ active: boolean; email?: string; scope?: string; aud?: string; exp?: number }>;
  /** Every successful token request: the grant type and the scope it was issued with. */
  tokenGrants: Array<{ grantType: string; scope: string }>;
  /** Every access and refresh token the server issued (their values), for tests that look for them where they must not be. */
  issuedTokens: string[];
  /** Every token revoked through the revocation endpoint, by hint. */
  revocations: Array<{ hint: string | undefined }>;
  /** The user withdraws consent (or changes their password): every grant, refresh and access token of theirs ends. */
  withdrawConsent(login: string): Promise<void>;
  /**
   * A user agent going through the authorization: follows the authorization URL, signs in as `login` on the login
   * page and presses Continue on the consent page, and answers where the server sends it back (the callback URL).
   */
  authorize(authorizationUrl: string, login: string): Promise<URL>;
  stop(): Promise<void>;
}

/** The resource server credentials Dovecot, the SMTP server and the Graph fake introspect with. */
const RESOURCE_SERVER = { id: "resource-server", secret: "resource-server-secret" };

/** oidc-provider's storage interface, in memory: kept here so a test can end a user's grants like a provider's admin. */
function memoryAdapter(store: Map<string, Record<string, unknown>>) {
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Record<string, unknown>) {
      store.set(this.key(id), { ...payload });
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key, value] of store) if (key.startsWith(`${this.model}:`) && value.uid === uid) return value;
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, value] of store) if (key.startsWith(`${this.model}:`) && value.userCode === userCode) return value;
      return undefined;
    }
    async consume(id: string) {
      const value = store.get(this.key(id));
      if (value) value.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, value] of store) if (value.grantId === grantId) store.delete(key);
    }
  };
}

/**
 * A real OAuth 2.0 / OpenID Connect server (oidc-provider) on a free loopback port, for Google's, Microsoft's or a
 * company's identity server in tests: discovery, the login and consent pages, authorization code with PKCE, refresh
 * tokens, introspection and revocation. Its resource servers are keyed by audience with their scopes, as Microsoft's
 * are ("https://outlook.office.com" has IMAP.AccessAsUser.All and SMTP.Send): a token is for one audience, chosen by
 * the scopes asked for, so asking for the mail scopes and then refreshing for the calendar scope gives two tokens,
 * as Microsoft's token endpoint does.
 */
export async function startOAuthServer(options: {
  clients: OAuthTestClient[];
  users: OAuthTestUser[];
  /** audience -> scopes. */
  resources: Record<string, string[]>;
  accessTokenSeconds?: number;
  /** A new refresh token on every refresh, the old one refused from then on (Microsoft's habit). */
  rotateRefreshTokens?: boolean;
  /** Open dynamic client registration (RFC 7591), as MCP servers' authorization servers offer it. */
  dynamicRegistration?: boolean;
  /** Resource servers' scopes a client may register for (dynamic registration checks them). */
  scopes?: string[];
}): Promise<OAuthTestServer> {
  const { default: Provider } = await quietly(() => import("oidc-provider"));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = new Map(options.users.map((user) => [user.login, user]));
  const stored = new Map<string, Record<string, unknown>>();
  const audiencesFor = (scope: unknown) => {
    const asked = String(scope ?? "").split(" ");
    return Object.keys(options.resources).filter((audience) => options.resources[audience]!.some((entry) => asked.includes(entry)));
  };
  const claimsOf = (login: string) => {
    const user = users.get(login);
    if (!user) return undefined;
    return {
      sub: login,
      name: user.name,
      preferred_username: user.preferredUsername ?? login,
      ...(user.noEmail ? {} : { email: user.email, email_verified: true }),
    };
  };
  const seconds = options.accessTokenSeconds ?? 3600;
  const provider = await quietly(
    async () =>
      new Provider(issuer, {
        adapter: memoryAdapter(stored) as never,
        clients: [
          ...options.clients.map((client) => ({
            client_id: client.id,
            client_secret: client.secret,
            redirect_uris: client.redirectUris,
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
          })),
          { client_id: RESOURCE_SERVER.id, client_secret: RESOURCE_SERVER.secret, redirect_uris: [], grant_types: [], response_types: [] },
        ],
        async findAccount(_context: unknown, id: string) {
          const claims = claimsOf(id);
          return claims ? { accountId: id, claims: async () => claims } : undefined;
        },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
        scopes: ["openid", "offline_access", "email", "profile", ...(options.scopes ?? [])],
        pkce: { required: () => true },
        // Refresh tokens whenever the client may refresh: Google gives them for access_type=offline, which this server
        // does not know; Microsoft and company servers for offline_access.
        issueRefreshToken: async (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
        rotateRefreshToken: () => options.rotateRefreshTokens ?? false,
        extraTokenClaims: async (_context: unknown, token: { accountId: string }) => {
          const user = users.get(token.accountId);
          return user && !user.noEmail ? { email: user.email } : { preferred_username: user?.preferredUsername ?? token.accountId };
        },
        ttl: {
          AccessToken: seconds,
          AuthorizationCode: 120,
          IdToken: 3600,
          RefreshToken: 30 * 86_400,
          Interaction: 600,
          Session: 3600,
          Grant: 30 * 86_400,
        },
        cookies: { keys: ["sage-test-cookie-key"] },
        features: {
          devInteractions: { enabled: true },
          registration: { enabled: options.dynamicRegistration ?? false },
          introspection: { enabled: true, allowedPolicy: async () => true },
          revocation: { enabled: true, allowedPolicy: async () => true },
          resourceIndicators: {
            enabled: true,
            // No `resource` parameter (Google and Microsoft take none): the audience follows from the scopes asked for.
            defaultResource: async (context: { oidc: { params: { scope?: unknown } } }, _client: unknown, oneOf?: string[]) => {
              const matching = audiencesFor(context.oidc.params.scope);
              if (oneOf) return matching.find((audience) => oneOf.includes(audience)) ?? oneOf[0];
              return matching.length > 0 ? matching : undefined;
            },
            useGrantedResource: async () => true,
            getResourceServerInfo: async (_context: unknown, audience: string) => {
              const scopes = options.resources[audience];
              if (!scopes) throw new Error(`no resource server ${audience}`);
              return { scope: scopes.join(" "), accessTokenFormat: "opaque", accessTokenTTL: seconds };
            },
          },
        },
      }),
  );
  const tokenGrants: OAuthTestServer["tokenGrants"] = [];
  const revocations: OAuthTestServer["revocations"] = [];
  const issuedTokens: string[] = [];
  // Opaque tokens' values are their ids.
  for (const event of ["access_token.saved", "refresh_token.saved"]) provider.on(event, (token: { jti: string }) => issuedTokens.push(token.jti));
  provider.on("grant.success", (context: { oidc: { params?: Record<string, unknown>; body?: Record<string, unknown> }; body?: { scope?: string } }) => {
    tokenGrants.push({ grantType: String(context.oidc.params?.grant_type ?? ""), scope: String(context.body?.scope ?? "") });
  });
  provider.use(async (context: { path: string; status: number; oidc?: { params?: Record<string, unknown> } }, next: () => Promise<void>) => {
    await next();
    if (context.path === "/token/revocation" && context.status === 200) {
      const hint = context.oidc?.params?.token_type_hint;
      revocations.push({ hint: typeof hint === "string" ? hint : undefined });
    }
  });
  server.on("request", provider.callback());

  const basic = `Basic ${Buffer.from(`${RESOURCE_SERVER.id}:${RESOURCE_SERVER.secret}`).toString("base64")}`;
  return {
    issuer,
    introspectionUrl: `http://${RESOURCE_SERVER.id}:${RESOURCE_SERVER.secret}@127.0.0.1:${(server.address() as AddressInfo).port}/token/introspection`,
    async introspect(token) {
      const answer = await fetch(`${issuer}/token/introspection`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }),
      });
      return (await answer.json()) as Awaited<ReturnType<OAuthTestServer["introspect"]>>;
    },
    tokenGrants,
    issuedTokens,
    revocations,
    async withdrawConsent(login) {
      const grants = [...stored].filter(([key, value]) => key.startsWith("Grant:") && value.accountId === login).map(([key]) => key.slice("Grant:".length));
      for (const grantId of grants) {
        for (const [key, value] of stored) if (value.grantId === grantId) stored.delete(key);
        stored.delete(`Grant:${grantId}`);
      }
      for (const [key, value] of stored) if (key.startsWith("Session:") && value.accountId === login) stored.delete(key);
    },
    async authorize(authorizationUrl, login) {
      const cookies = new Map<string, string>();
      const go = async (url: string, init: RequestInit = {}) => {
        const answer = await fetch(url, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
        });
        for (const cookie of answer.headers.getSetCookie()) {
          const [pair] = cookie.split(";");
          const at = pair!.indexOf("=");
          cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        return answer;
      };
      let answer = await go(authorizationUrl);
      for (let step = 0; step < 12; step++) {
        if (answer.status === 200) {
          // The login page, then the consent page: each a form with a `prompt` field.
          const page = await answer.text();
          const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
          const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
          if (!action || !prompt) throw new Error(`the identity server showed a page without a form: ${page.slice(0, 300)}`);
          answer = await go(new URL(action, issuer).href, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ prompt, login, password: "any" }),
          });
          continue;
        }
        const location = answer.headers.get("location");
        if (!location) throw new Error(`the identity server answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
        const next = new URL(location, issuer);
        if (next.origin !== issuer) return next;
        answer = await go(next.href);
      }
      throw new Error("the authorization did not come back to the client");
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** oidc-provider warns about development settings (and Node 20) on the console; tests have no use for it. */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const { warn, info } = console;
  console.warn = (...args: unknown[]) => (String(args[0]).includes("oidc-provider") ? undefined : warn(...args));
  console.info = (...args: unknown[]) => (String(args[0]).includes("oidc-provider") ? undefined : info(...args));
  try {
    return await run();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}
