import type { OAuthConfig } from "../../config-oauth.ts";
import type { AppModule } from "../../http/app-module.ts";
import { discoverOAuthClient, type OAuthClient, type OAuthServer } from "../../providers/oauth/oauth-client.ts";
import type { Store } from "../../store/open-store.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { createExternalGrants, type ExternalGrants } from "./external-grants.ts";
import { signInProviders, type SignInProvider } from "./oauth-presets.ts";
import { createSignInRepo } from "./sign-in.repo.ts";
import { registerSignInRoutes, type SignInOwner } from "./sign-in.routes.ts";
import { createSignInService, type GrantInfo } from "./sign-in.service.ts";

export { SignInNeededError, SignInUnavailableError, REFRESH_MARGIN_MS, type GrantInfo } from "./sign-in.service.ts";
export type { SignInOwner } from "./sign-in.routes.ts";
export type { ExternalGrants, FlowTexts } from "./external-grants.ts";
export type { GrantTokens } from "./grant-tokens.ts";
export type { SignInProvider, HostPort } from "./oauth-presets.ts";

/**
 * What other modules use of sign-in (decision 070): grants to fill, a working access token on demand (refreshed
 * before it expires), and revocation. Whoever uses a token never sees how it was obtained.
 */
export interface SignInPort {
  /** The provider (Google, Microsoft, the company's); a 400 saying what to set when the operator has not set it up. */
  configured(providerId: string): SignInProvider;
  provider(providerId: string): SignInProvider;
  /** A new grant, waiting for its first sign-in. */
  createGrant(userId: number, providerId: string): Promise<number>;
  grant(grantId: number): Promise<GrantInfo | null>;
  /** Whether the sign-in granted every scope of the audience (Google lets the user untick the calendar). */
  covers(grantId: number, audience: string): Promise<boolean>;
  /** A working access token: SignInNeededError when the provider refused it for good, SignInUnavailableError when unreachable. */
  accessToken(grantId: number, audience: string): Promise<string>;
  /** Adds a provider while running ("mcp:12": an MCP server's authorization server and SAGE's client there). */
  registerProvider(provider: SignInProvider): void;
  /** Revokes the grant at the provider (when it can) and forgets it. */
  revoke(grantId: number): Promise<void>;
  /** Where the browser goes to sign in for an owner: `/api/oauth/google/start?account=12`. */
  startUrl(providerId: string, param: string, ownerId: number): string;
  /** Takes part in sign-ins: the start route's parameter, and what happens once signed in. */
  addOwner(owner: SignInOwner): void;
  /** Grants whose flow another module runs itself (an MCP server's sign-in, decision 080), kept as these are. */
  external: ExternalGrants;
}

export interface SignInModule extends AppModule {
  port: SignInPort;
}

export function createSignInModule(deps: {
  store: Pick<Store, "db">;
  box: SecretBox;
  config: OAuthConfig;
  secureCookies: boolean;
  /** The clock tokens expire by (tests move it). */
  now?: () => number;
  /** The OAuth client (tests may wrap it). */
  discover?: (server: OAuthServer) => Promise<OAuthClient>;
  warn(message: string, error?: unknown): void;
}): SignInModule {
  const providers = signInProviders(deps.config);
  const repo = createSignInRepo(deps.store.db);
  const service = createSignInService({
    repo,
    box: deps.box,
    providers: providers as Record<string, SignInProvider>,
    discover: deps.discover ?? discoverOAuthClient,
    now: deps.now ?? Date.now,
    warn: deps.warn,
  });
  const owners: SignInOwner[] = [];
  return {
    port: {
      configured: service.configured,
      provider: service.provider,
      createGrant: service.createGrant,
      grant: service.grant,
      covers: service.covers,
      accessToken: service.accessToken,
      revoke: service.revoke,
      registerProvider: service.registerProvider,
      startUrl: (providerId, param, ownerId) => `/api/oauth/${providerId}/start?${param}=${ownerId}`,
      addOwner: (owner) => owners.push(owner),
      external: createExternalGrants({ repo, box: deps.box, now: deps.now ?? Date.now }),
    },
    register(app) {
      registerSignInRoutes(app, { service, owners, publicUrl: deps.config.publicUrl, secureCookies: deps.secureCookies });
    },
  };
}
