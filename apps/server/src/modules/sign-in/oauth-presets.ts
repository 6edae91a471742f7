import type { OAuthProviderId } from "@sage/contracts/oauth";
import type { OAuthConfig } from "../../config-oauth.ts";

export interface HostPort {
  host: string;
  port: number;
  secure: boolean;
}

/** What a sign-in's access token is for: the scopes it carries, or an RFC 8707 resource (an MCP server). */
export interface Audience {
  scopes: string[];
  resource?: string;
}

/**
 * One identity provider SAGE signs in at: its issuer (endpoints come from the issuer's discovery document), SAGE's
 * registration there, what is asked at sign-in, and the access tokens its grants hold. Google, Microsoft and the
 * company provider are this same shape; only the issuer, scopes and hosts differ.
 */
export interface SignInProvider {
  id: string;
  name: string;
  /**
   * null: the operator has not registered SAGE there. No secret: a public client (PKCE alone). `fetch`: how its
   * endpoints are reached when they are not the operator's (an MCP server's, under the private-address rule).
   */
  registration: { issuer: string; clientId: string; clientSecret?: string; fetch?: typeof globalThis.fetch } | null;
  /** Everything consented to at sign-in (ID token scopes included). */
  scopes: string[];
  /** Extra parameters of the authorization request (Google's access_type=offline). */
  authorizationParameters: Record<string, string>;
  /** The access tokens a grant holds, by what they are for ("mail", "calendar"). */
  audiences: Record<string, Audience>;
  /**
   * Whether one access token serves one audience only and the token endpoint must be told which (Microsoft: a token
   * is for outlook.office.com or for graph.microsoft.com, never both). Otherwise one token serves every audience.
   */
  tokenPerAudience: boolean;
  /** Where its mail is (Google's and Microsoft's own hosts), or null when the account says (the company provider). */
  mail: { imap: HostPort; smtp: HostPort } | null;
  /** Its calendar: Google's over CalDAV with the bearer token, Microsoft's over Graph; null when it has none SAGE knows. */
  calendar: { kind: "caldav" | "graph"; url: string } | null;
}

export const OPENID_SCOPES = ["openid", "email", "profile"];

const GOOGLE_MAIL = "https://mail.google.com/";
const GOOGLE_CALENDAR = "https://www.googleapis.com/auth/calendar";
const OUTLOOK_IMAP = "https://outlook.office.com/IMAP.AccessAsUser.All";
const OUTLOOK_SMTP = "https://outlook.office.com/SMTP.Send";
const GRAPH_CALENDARS = "https://graph.microsoft.com/Calendars.ReadWrite";

/** The three providers, from the operator's registration (and, in tests only, their endpoints pointed at test servers). */
export function signInProviders(config: OAuthConfig): Record<OAuthProviderId, SignInProvider> {
  const testGoogle = config.testEndpoints?.google ?? {};
  const testMicrosoft = config.testEndpoints?.microsoft ?? {};
  const oidcScopes = config.oidc?.scopes ?? ["openid", "email", "profile", "offline_access"];
  return {
    google: {
      id: "google",
      name: "Google",
      registration: config.google ? { issuer: testGoogle.issuer ?? "https://accounts.google.com", ...config.google } : null,
      scopes: [...OPENID_SCOPES, GOOGLE_MAIL, GOOGLE_CALENDAR],
      // Google gives a refresh token only for access_type=offline, and again on a later sign-in only with prompt=consent.
      authorizationParameters: { access_type: "offline", prompt: "consent" },
      audiences: { mail: { scopes: [GOOGLE_MAIL] }, calendar: { scopes: [GOOGLE_CALENDAR] } },
      tokenPerAudience: false,
      mail: {
        imap: testGoogle.imap ?? { host: "imap.gmail.com", port: 993, secure: true },
        smtp: testGoogle.smtp ?? { host: "smtp.gmail.com", port: 465, secure: true },
      },
      calendar: { kind: "caldav", url: testGoogle.caldavUrl ?? "https://apidata.googleusercontent.com/caldav/v2/" },
    },
    microsoft: {
      id: "microsoft",
      name: "Microsoft",
      registration: config.microsoft
        ? {
            issuer: testMicrosoft.issuer ?? `https://login.microsoftonline.com/${config.microsoft.tenant}/v2.0`,
            clientId: config.microsoft.clientId,
            clientSecret: config.microsoft.clientSecret,
          }
        : null,
      // Consent to mail and calendar at once; each token is then asked for one resource (Microsoft's rule).
      scopes: [...OPENID_SCOPES, "offline_access", OUTLOOK_IMAP, OUTLOOK_SMTP, GRAPH_CALENDARS],
      authorizationParameters: {},
      audiences: { mail: { scopes: [OUTLOOK_IMAP, OUTLOOK_SMTP] }, calendar: { scopes: [GRAPH_CALENDARS] } },
      tokenPerAudience: true,
      mail: {
        imap: testMicrosoft.imap ?? { host: "outlook.office365.com", port: 993, secure: true },
        smtp: testMicrosoft.smtp ?? { host: "smtp.office365.com", port: 587, secure: false },
      },
      calendar: { kind: "graph", url: testMicrosoft.graphUrl ?? "https://graph.microsoft.com/v1.0" },
    },
    oidc: {
      id: "oidc",
      name: config.oidc?.name ?? "your company",
      registration: config.oidc ? { issuer: config.oidc.issuer, clientId: config.oidc.clientId, clientSecret: config.oidc.clientSecret } : null,
      scopes: oidcScopes,
      // OpenID Connect gives a refresh token for offline_access only after consent was asked.
      authorizationParameters: oidcScopes.includes("offline_access") ? { prompt: "consent" } : {},
      audiences: { mail: { scopes: oidcScopes.filter((scope) => !OPENID_SCOPES.includes(scope) && scope !== "offline_access") } },
      tokenPerAudience: false,
      mail: null,
      calendar: null,
    },
  };
}
