import type { FastifyInstance } from "fastify";
import type { OAuthTestServer } from "@sage/testkit/oauth-test-server";

/** Where tests say SAGE is opened: the redirect URI the test identity server has registered is made from it. */
export const TEST_PUBLIC_URL = "http://sage.test";
export const TEST_CLIENT = { id: "sage-test-client", secret: "sage-test-client-secret" };
export const testRedirectUris = (...providers: string[]) => providers.map((provider) => `${TEST_PUBLIC_URL}/api/oauth/${provider}/callback`);

/**
 * A browser signing in: opens the account's signInUrl (SAGE answers 302 to the provider and sets its browser
 * cookie), goes through the provider's login and consent pages as `login`, and comes back to SAGE's callback with
 * the same cookies. Answers SAGE's start and callback responses.
 */
export async function signInThroughBrowser(app: FastifyInstance, cookie: string, signInUrl: string, oauth: OAuthTestServer, login: string) {
  const start = await app.inject({ method: "GET", url: signInUrl, headers: { cookie } });
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}: ${start.body}`);
  const browser = start.cookies.find((item) => item.name === "sage_oauth_browser");
  const browserCookie = browser ? `${cookie}; sage_oauth_browser=${browser.value}` : cookie;
  const back = await oauth.authorize(start.headers.location as string, login);
  const callback = await app.inject({ method: "GET", url: `${back.pathname}${back.search}`, headers: { cookie: browserCookie } });
  return { start, back, callback, browserCookie };
}
