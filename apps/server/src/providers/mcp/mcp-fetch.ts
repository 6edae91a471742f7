import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { loadGuardedFetch } from "../../http/safe-fetch.ts";
import { resolveAllowedHost, type PrivateAddressRule } from "../mail/allowed-host.ts";

const MAX_REDIRECTS = 5;

/** A remote tool server, or its authorization server, is on a private address the rule does not allow. */
export class McpBlockedAddress extends Error {
  readonly code = "SAGE_BLOCKED_ADDRESS";
}

const isTrusted = (url: URL, rule: PrivateAddressRule) => {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return rule.allowPrivate || rule.allowHosts.includes(host) || rule.allowHosts.includes(url.host.toLowerCase());
};

/** Refuses an address the rule does not allow, before any request (POST /api/tools/servers says so at once). */
export async function checkRemoteAddress(raw: string, rule: PrivateAddressRule): Promise<void> {
  const url = new URL(raw);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  try {
    await resolveAllowedHost(url.hostname, port, rule);
  } catch (error) {
    if ((error as { problem?: string }).problem === "blocked") throw new McpBlockedAddress(`${url.hostname} is a private address`);
    throw error;
  }
}

/**
 * The fetch the MCP SDK uses for a remote server and its sign-in (protected-resource metadata, the authorization
 * server's metadata, registration, tokens): the web links' rule for private addresses on every hop (decision 030),
 * the name checked again on the address connected to, redirects followed here so each one is checked.
 */
export function mcpFetch(rule: PrivateAddressRule): FetchLike {
  return async (input, init) => {
    let url = new URL(typeof input === "string" ? input : input.href);
    const { fetch, guarded, open } = await loadGuardedFetch();
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`Only http and https addresses are reached (${url.protocol})`);
      await checkRemoteAddress(url.href, rule);
      let response: Response;
      try {
        response = (await fetch(url, {
          ...(init as object),
          redirect: "manual",
          dispatcher: isTrusted(url, rule) ? open : guarded,
        } as never)) as unknown as Response;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        if (cause?.code === "SAGE_BLOCKED_ADDRESS") throw new McpBlockedAddress(`${url.hostname} is a private address`);
        throw error;
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      return asGlobalResponse(response);
    }
  };
}

/**
 * undici's own Response class is not Node's global one: the SDK reads an authorization server's error answer only
 * when `instanceof Response` holds (else its message is "[object Response]"), so the answer is handed over as one.
 */
function asGlobalResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer;
  const response = answer as Response;
  const empty = response.status === 204 || response.status === 205 || response.status === 304 || response.status < 200;
  return new Response(empty ? null : response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
