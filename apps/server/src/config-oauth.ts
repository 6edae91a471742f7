import { z } from "zod";

/** Sign-in with Google, Microsoft and a company's identity server (issue 48, decision 070): what the operator registered. */
export interface OAuthConfig {
  /** The address users open SAGE at (SAGE_PUBLIC_URL): redirect URIs are made from it; else from the address the browser used. */
  publicUrl: string | null;
  google: { clientId: string; clientSecret: string } | null;
  microsoft: { clientId: string; clientSecret: string; tenant: string } | null;
  oidc: { issuer: string; clientId: string; clientSecret: string; scopes: string[]; name: string } | null;
  /** Tests only (SAGE_OAUTH_TEST_ENDPOINTS): the Google and Microsoft presets pointed at local test servers. */
  testEndpoints: OAuthTestEndpoints | null;
}

const hostPort = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535), secure: z.boolean() });
const presetEndpoints = z.object({ issuer: z.url(), imap: hostPort, smtp: hostPort, caldavUrl: z.url(), graphUrl: z.url() }).partial().strict();
const testEndpointsSchema = z.object({ google: presetEndpoints, microsoft: presetEndpoints }).partial().strict();
export type OAuthTestEndpoints = z.infer<typeof testEndpointsSchema>;

/** An issuer SAGE may sign in at: https, or http on this machine only (a test server, a local Keycloak). */
const issuerUrl = z.url().refine((value) => {
  const url = new URL(value);
  return url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname));
}, "give the issuer's https:// address (http:// only for a server on this machine)");

/** The environment variables of sign-in, spread into config.ts's schema. */
export const oauthEnvFields = {
  SAGE_PUBLIC_URL: z
    .url()
    .refine((value) => /^https?:$/.test(new URL(value).protocol), "give the http:// or https:// address users open SAGE at")
    .optional(),
  SAGE_GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  SAGE_GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SAGE_MICROSOFT_CLIENT_ID: z.string().trim().min(1).optional(),
  SAGE_MICROSOFT_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SAGE_MICROSOFT_TENANT: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]+$/, "give common, organizations, consumers, your tenant's id or its domain name")
    .default("common"),
  SAGE_OIDC_ISSUER: issuerUrl.optional(),
  SAGE_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  SAGE_OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SAGE_OIDC_SCOPES: z.string().trim().min(1).default("openid email profile offline_access"),
  SAGE_OIDC_NAME: z.string().trim().min(1).max(60).default("your company"),
  SAGE_OAUTH_TEST_ENDPOINTS: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return null;
      try {
        return testEndpointsSchema.parse(JSON.parse(value));
      } catch {
        context.addIssue({ code: "custom", message: "tests only: a JSON object of the presets' test endpoints" });
        return z.NEVER;
      }
    }),
};

type OAuthEnv = z.output<z.ZodObject<typeof oauthEnvFields>>;

/** Both halves of a registration, or neither: one alone is a typing slip the operator should hear about at start-up. */
function pair(name: string, id: string | undefined, secret: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!id && !secret) return null;
  if (!id || !secret) throw new Error(`${name}: set both ${name}_CLIENT_ID and ${name}_CLIENT_SECRET (or neither)`);
  return { clientId: id, clientSecret: secret };
}

export function oauthConfig(e: OAuthEnv): OAuthConfig {
  const google = pair("SAGE_GOOGLE", e.SAGE_GOOGLE_CLIENT_ID, e.SAGE_GOOGLE_CLIENT_SECRET);
  const microsoft = pair("SAGE_MICROSOFT", e.SAGE_MICROSOFT_CLIENT_ID, e.SAGE_MICROSOFT_CLIENT_SECRET);
  const oidcClient = pair("SAGE_OIDC", e.SAGE_OIDC_CLIENT_ID, e.SAGE_OIDC_CLIENT_SECRET);
  if (Boolean(oidcClient) !== Boolean(e.SAGE_OIDC_ISSUER))
    throw new Error("SAGE_OIDC: set SAGE_OIDC_ISSUER with SAGE_OIDC_CLIENT_ID and SAGE_OIDC_CLIENT_SECRET");
  const scopes = e.SAGE_OIDC_SCOPES.split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes("openid")) scopes.unshift("openid");
  return {
    publicUrl: e.SAGE_PUBLIC_URL ? e.SAGE_PUBLIC_URL.replace(/\/+$/, "") : null,
    google,
    microsoft: microsoft ? { ...microsoft, tenant: e.SAGE_MICROSOFT_TENANT } : null,
    oidc: oidcClient && e.SAGE_OIDC_ISSUER ? { ...oidcClient, issuer: e.SAGE_OIDC_ISSUER, scopes, name: e.SAGE_OIDC_NAME } : null,
    testEndpoints: e.SAGE_OAUTH_TEST_ENDPOINTS,
  };
}
