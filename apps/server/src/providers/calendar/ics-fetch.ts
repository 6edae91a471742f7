import { SafeFetchError, safeFetch } from "../../http/safe-fetch.ts";
import { resolveAllowedHost, type PrivateAddressRule } from "../mail/allowed-host.ts";
import { MailConnectionError } from "../mail/mail-connection-error.ts";

/** A subscription larger than this is refused (a calendar of many years is a few megabytes). */
const MAX_ICS_BYTES = 20 * 1_048_576;

/**
 * Fetches an ICS subscription (Google's or Outlook's secret address) with the web links' safe fetch: its host,
 * every redirect and the address connected to follow the private-address rule. Failures name the step.
 */
export async function fetchIcs(rawUrl: string, rule: PrivateAddressRule): Promise<string> {
  const url = new URL(rawUrl);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  // Resolving first sorts an unknown name (dns) and a private one (blocked) into their own words.
  await resolveAllowedHost(url.hostname, port, rule);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const trusted = rule.allowPrivate || rule.allowHosts.includes(host) || rule.allowHosts.includes(`${host}:${port}`);
  let body: Buffer;
  try {
    ({ body } = await safeFetch(url.href, {
      allowPrivate: trusted,
      maxBytes: MAX_ICS_BYTES,
      timeoutMs: 30_000,
      accept: "text/calendar,text/plain;q=0.8,*/*;q=0.5",
    }));
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const status = /answered (\d+)/.exec(error.message)?.[1];
    if (error.code === "http_error") {
      throw new MailConnectionError(
        status === "401" || status === "403" ? "login" : status === "404" || status === "410" ? "not-found" : "network",
        error.code,
      );
    }
    if (error.code === "blocked_address") throw new MailConnectionError("blocked", error.code);
    if (error.code === "timeout") throw new MailConnectionError("timeout", error.code);
    if (error.code === "too_large" || error.code === "invalid_url") throw new MailConnectionError("not-calendar", error.code);
    throw new MailConnectionError(/CERT|SSL|TLS/i.test(error.message) ? "tls" : "network", error.code);
  }
  const text = body.toString("utf8").replace(/^\uFEFF/, "");
  if (!/^BEGIN:VCALENDAR\s*$/im.test(text)) throw new MailConnectionError("not-calendar", "not iCalendar");
  return text;
}
