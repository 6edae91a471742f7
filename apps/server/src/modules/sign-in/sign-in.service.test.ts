import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OAuthError, type OAuthClient, type TokenSet } from "../../providers/oauth/oauth-client.ts";
import { createSecretBox } from "../../store/secret-box.ts";
import { openSqliteTestDatabase, testDatabasesOf } from "../../test/test-databases.ts";
import { openTokens, sealTokens } from "./grant-tokens.ts";
import type { SignInProvider } from "./oauth-presets.ts";
import { createSignInRepo } from "./sign-in.repo.ts";
import { REFRESH_MARGIN_MS, SignInNeededError, SignInUnavailableError, createSignInService } from "./sign-in.service.ts";

const USER = 3;
const HOUR = 3_600_000;

/** Microsoft's shape: a token per audience, each asked for with its scopes. */
const microsoft: SignInProvider = {
  id: "microsoft",
  name: "Microsoft",
  registration: { issuer: "https://login.example", clientId: "c", clientSecret: "s" },
  scopes: ["openid", "email", "profile", "offline_access", "mail.scope", "calendar.scope"],
  authorizationParameters: {},
  audiences: { mail: { scopes: ["mail.scope"] }, calendar: { scopes: ["calendar.scope"] } },
  tokenPerAudience: true,
  mail: null,
  calendar: null,
};

/** A fake token endpoint (a capability fake, as unit tests use): each refresh answers the next token, rotating the refresh token. */
function fakeClient(refreshes: Array<{ parameters?: Record<string, string>; refreshToken: string }>, fail?: () => OAuthError | null) {
  let n = 0;
  const client: OAuthClient = {
    issuer: "https://login.example",
    canRevoke: false,
    authorizationUrl: () => new URL("https://login.example/authorize"),
    exchangeCode: async () => {
      throw new Error("not used");
    },
    async refresh(refreshToken, parameters) {
      refreshes.push({ refreshToken, ...(parameters ? { parameters } : {}) });
      const failure = fail?.();
      if (failure) throw failure;
      await new Promise((resolve) => setTimeout(resolve, 20));
      n += 1;
      return { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, expiresIn: 3600, scope: null, idClaims: null } satisfies TokenSet;
    },
    revoke: async () => undefined,
  };
  return client;
}

describe("the sign-in's tokens: refreshed before expiry, once at a time, ended by invalid_grant", () => {
  const databases = testDatabasesOf(openSqliteTestDatabase);

  async function setUp(fail?: () => OAuthError | null) {
    const db = await databases.withUsers(USER);
    const box = createSecretBox(randomBytes(32));
    const repo = createSignInRepo(db);
    let now = Date.parse("2026-12-01T09:00:00Z");
    const refreshes: Array<{ parameters?: Record<string, string>; refreshToken: string }> = [];
    const service = createSignInService({
      repo,
      box,
      providers: { microsoft },
      discover: async () => fakeClient(refreshes, fail),
      now: () => now,
      warn: () => undefined,
    });
    const grantId = await repo.insertGrant(USER, "microsoft");
    await repo.updateGrant(grantId, {
      status: "ok",
      tokens: sealTokens(box, { refreshToken: "refresh-0", access: { mail: { token: "access-0", expiresAt: now + HOUR, scope: null } } }),
    });
    return { repo, box, service, grantId, refreshes, advance: (ms: number) => (now += ms) };
  }

  it("answers the stored token while it has more than five minutes, and asks each audience's token for its scopes", async () => {
    const { service, grantId, refreshes, advance } = await setUp();
    expect(await service.accessToken(grantId, "mail")).toBe("access-0");
    advance(HOUR - REFRESH_MARGIN_MS - 1000);
    expect(await service.accessToken(grantId, "mail")).toBe("access-0");
    expect(refreshes).toEqual([]);
    // The calendar's token is another audience's: asked for with its own scopes alone.
    expect(await service.accessToken(grantId, "calendar")).toBe("access-1");
    expect(refreshes).toEqual([{ refreshToken: "refresh-0", parameters: { scope: "calendar.scope" } }]);
    // Four minutes left on the mail token: refreshed with the rotated refresh token.
    advance(2000);
    expect(await service.accessToken(grantId, "mail")).toBe("access-2");
    expect(refreshes.at(-1)).toEqual({ refreshToken: "refresh-1", parameters: { scope: "mail.scope" } });
  });

  it("refreshes once for callers at the same moment, and waits for another process's refresh", async () => {
    const { repo, box, service, grantId, refreshes, advance } = await setUp();
    advance(HOUR);
    expect(await Promise.all([1, 2, 3].map(() => service.accessToken(grantId, "mail")))).toEqual(["access-1", "access-1", "access-1"]);
    expect(refreshes).toHaveLength(1);

    // Another process holds the lease: this one waits, then reads the token it stored, refreshing nothing itself.
    advance(HOUR);
    await repo.updateGrant(grantId, { refreshLeaseUntilMs: Date.now() + 30_000 });
    const waiting = service.accessToken(grantId, "mail");
    const stored = openTokens(box, (await repo.grant(grantId))!.tokens)!;
    await repo.updateGrant(grantId, {
      refreshLeaseUntilMs: null,
      tokens: sealTokens(box, { ...stored, access: { mail: { token: "from-the-other-process", expiresAt: Date.now() + 10 * HOUR, scope: null } } }),
    });
    expect(await waiting).toBe("from-the-other-process");
    expect(refreshes).toHaveLength(1);
  });

  it("takes a provider registered while running (an MCP server's), whose token is asked for by resource", async () => {
    const { repo, box, service, refreshes } = await setUp();
    service.registerProvider({
      ...microsoft,
      id: "mcp:12",
      name: "Notes server",
      registration: { issuer: "https://auth.notes.example", clientId: "registered-client" },
      audiences: { mcp: { scopes: ["notes"], resource: "https://notes.example/mcp" } },
    });
    expect(() => service.registerProvider({ ...microsoft, id: "mcp" })).toThrow(/<family>:<name>/);
    const grantId = await service.createGrant(USER, "mcp:12");
    await repo.updateGrant(grantId, { status: "ok", tokens: sealTokens(box, { refreshToken: "refresh-0", access: {} }) });
    expect(await service.accessToken(grantId, "mcp")).toBe("access-1");
    expect(refreshes).toEqual([{ refreshToken: "refresh-0", parameters: { resource: "https://notes.example/mcp" } }]);
  });

  it("invalid_grant ends the grant (sign-in needed, tokens dropped); an unreachable provider keeps it", async () => {
    let failure: OAuthError | null = new OAuthError("unavailable", "token endpoint: 503");
    const { repo, service, grantId, advance } = await setUp(() => failure);
    advance(HOUR);
    await expect(service.accessToken(grantId, "mail")).rejects.toBeInstanceOf(SignInUnavailableError);
    expect(await repo.grant(grantId)).toMatchObject({ status: "ok", refreshLeaseUntilMs: null });
    failure = new OAuthError("revoked", "token endpoint: invalid_grant");
    await expect(service.accessToken(grantId, "mail")).rejects.toBeInstanceOf(SignInNeededError);
    expect(await repo.grant(grantId)).toMatchObject({ status: "sign-in-needed", tokens: null });
    failure = null;
    await expect(service.accessToken(grantId, "mail")).rejects.toBeInstanceOf(SignInNeededError);
  });
});
