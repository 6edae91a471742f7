import { z } from "zod";

/**
 * Sign-in with an identity provider (issue 48): Google, Microsoft, or the company's own OpenID Connect server. The
 * operator registers SAGE once with each; a user then signs in with one click and SAGE keeps the tokens.
 */

export const OAUTH_PROVIDER_IDS = ["google", "microsoft", "oidc"] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

/** GET /api/oauth/providers: which buttons Settings > Accounts shows, and whether the operator has set each up. */
export const oauthProviderSchema = z.object({
  id: z.enum(OAUTH_PROVIDER_IDS),
  name: z.string(),
  configured: z.boolean(),
  /** What the operator must set for an unconfigured provider, in words (null once configured). */
  setup: z.string().nullable(),
});
export type OAuthProvider = z.infer<typeof oauthProviderSchema>;
export const oauthProviderListSchema = z.array(oauthProviderSchema);

/** What the operator must set, said on the button of a provider that is not set up. */
export const OAUTH_SETUP_TEXTS: Record<OAuthProviderId, string> = {
  google: "Sign in with Google is not set up on this server: the operator sets SAGE_GOOGLE_CLIENT_ID and SAGE_GOOGLE_CLIENT_SECRET (see the README).",
  microsoft:
    "Sign in with Microsoft is not set up on this server: the operator sets SAGE_MICROSOFT_CLIENT_ID and SAGE_MICROSOFT_CLIENT_SECRET (see the README).",
  oidc: "Sign in with your company is not set up on this server: the operator sets SAGE_OIDC_ISSUER, SAGE_OIDC_CLIENT_ID and SAGE_OIDC_CLIENT_SECRET.",
};

/** The server's words for a sign-in that cannot go on (400/404), shown as they are. */
export const OAUTH_ERRORS = {
  unknownProvider: 'provider must be "google", "microsoft" or "oidc"',
  stateInvalid: "This sign-in link has expired or was already used. Start again from Settings > Accounts.",
  browserMismatch: "This sign-in was started in another browser. Start again from Settings > Accounts, in this browser.",
  ownerRequired: "Say which account to sign in: /api/oauth/{provider}/start?account={id}",
  denied: "The sign-in was cancelled, so nothing was connected.",
  failed: "The provider did not complete the sign-in. Try again; if it keeps failing, the operator can check the server's log.",
  wrongProvider: "This account signs in with another provider.",
} as const;

/** Where the callback sends the browser back: Settings > Accounts, with what happened. */
export const SIGN_IN_RESULT_PARAM = "signIn";
export const SIGN_IN_RESULTS = ["connected", "cancelled", "failed", "other-account"] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];

/** What Settings > Accounts says when the provider sends the browser back. */
export const SIGN_IN_RESULT_TEXTS: Record<SignInResult, string> = {
  connected: "Signed in. SAGE is syncing your mail (and your calendar, if it came with the sign-in).",
  cancelled: "The sign-in was cancelled, so nothing was connected.",
  failed: "The provider did not complete the sign-in. Try again; if it keeps failing, the operator can check the server's log.",
  "other-account":
    "You signed in as someone other than this account's owner, so nothing changed. Sign in again as its owner, or connect the other mailbox as a new account.",
};

/**
 * GET /api/oauth/{provider}/...: the provider in the path: google, microsoft, oidc, or the family of providers
 * registered per server (mcp: an MCP server's authorization server).
 */
export const signInProviderParamsSchema = z.object({
  provider: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, OAUTH_ERRORS.unknownProvider)
    .describe("google, microsoft, oidc, or mcp"),
});

/** GET /api/oauth/{provider}/start: whose sign-in it is (`account`; later other owners, such as an MCP server). */
export const signInStartQuerySchema = z.looseObject({ account: z.coerce.number().int().positive().optional() });

/** GET /api/oauth/{provider}/callback: what the provider sends back (RFC 6749 4.1.2: code and state, or error). */
export const signInCallbackQuerySchema = z
  .looseObject({
    state: z.string().max(512).optional(),
    code: z.string().max(4096).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
  })
  .refine((query) => Object.keys(query).length <= 20 && Object.values(query).every((value) => typeof value === "string" && value.length <= 4096))
  .transform((query) => query as Record<string, string>);

/** A redirect: no body, the Location header says where. */
export const signInRedirectSchema = z.null().describe("No body: the Location header says where the browser goes");
