import { loadGuardedFetch } from "../../http/safe-fetch.ts";
import { resolveAllowedHost, type PrivateAddressRule } from "../mail/allowed-host.ts";
import { MailConnectionError } from "../mail/mail-connection-error.ts";

const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 30_000;

/** What the calendar server answered along the way, so a failure can say which step failed. */
export interface FetchTrace {
  statuses: number[];
}

const isTrusted = (url: URL, rule: PrivateAddressRule) => {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return rule.allowPrivate || rule.allowHosts.includes(host) || rule.allowHosts.includes(url.host.toLowerCase());
};

/** The step a network failure belongs to, from undici's error codes (never its message). */
export function connectionProblem(error: unknown): MailConnectionError {
  if (error instanceof MailConnectionError) return error;
  const cause = (error as { cause?: { code?: string; name?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code ?? "";
  const name = (error as { name?: string }).name ?? "";
  if (code === "SAGE_BLOCKED_ADDRESS") return new MailConnectionError("blocked", "private address");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new MailConnectionError("dns", code);
  if (name === "TimeoutError" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "ETIMEDOUT")
    return new MailConnectionError("timeout", code || name);
  if (/CERT|SSL|TLS|ERR_SSL/i.test(code) || code === "EPROTO") return new MailConnectionError("tls", code);
  return new MailConnectionError("network", code || "network error");
}

/**
 * A fetch for calendar servers under the web links' rule (decision 030): every hop's host is checked (a name is
 * refused when any address it resolves to is private, and checked again on the address connected to), redirects
 * are followed here (at most 5) so each one is checked, and the whole request has a time limit.
 */
export function calendarFetch(rule: PrivateAddressRule, trace: FetchTrace = { statuses: [] }): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const { fetch, guarded, open } = await loadGuardedFetch();
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new MailConnectionError("network", "not http");
      const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
      await resolveAllowedHost(url.hostname, port, rule);
      let response;
      try {
        response = await fetch(url, {
          ...(init as object),
          redirect: "manual",
          dispatcher: isTrusted(url, rule) ? open : guarded,
          signal: init?.signal ?? AbortSignal.timeout(TIMEOUT_MS),
        } as never);
      } catch (error) {
        throw connectionProblem(error);
      }
      trace.statuses.push(response.status);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      return response as unknown as Response;
    }
  }) as typeof globalThis.fetch;
}
