import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { FastifyInstance } from "fastify";
import { AppError } from "./app-error.ts";

/** A Host header as browsers write it: a name or an IPv4 address, or an IPv6 address in brackets, and a port. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::\d{1,5})?$/i;
const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", "0:0:0:0:0:0:0:0"]);
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];

/** A host name or address in one spelling: lower case, no brackets, no trailing dot, IPv6 in its short form. */
export function canonicalHost(name: string): string {
  const bare = name
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(bare) !== 6) return bare;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return bare;
  }
}

/** The host name of a Host header, canonical; undefined when it is not one a browser would send. */
function hostName(header: string | undefined): string | undefined {
  const match = HOST_HEADER.exec(header ?? "");
  if (!match) return undefined;
  return canonicalHost(match[1] ?? match[2]!);
}

/** The machine's own addresses, read at each call: an address gained after start-up (DHCP) counts too. */
const ownAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [canonicalHost(entry.address)] : []));

/**
 * Which Host names this server answers to: localhost, 127.0.0.1 and ::1; the address it is bound to (or, bound to
 * every address, each address the machine has); and the configured names, where ".example.com" takes example.com
 * and its subdomains (decision 027).
 */
export function createHostAllowList(options: { boundHost: string; allowedHosts: string[]; interfaceAddresses?: () => string[] }) {
  const exact = new Set([...LOOPBACK_NAMES, ...options.allowedHosts.filter((name) => !name.startsWith(".")).map(canonicalHost)]);
  const suffixes = options.allowedHosts.filter((name) => name.startsWith(".")).map((name) => canonicalHost(name));
  const bound = canonicalHost(options.boundHost);
  const everyAddress = WILDCARD_ADDRESSES.has(bound);
  if (!everyAddress) exact.add(bound);
  const interfaceAddresses = options.interfaceAddresses ?? ownAddresses;
  return (name: string): boolean =>
    exact.has(name) ||
    suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix)) ||
    (everyAddress && isIP(name) !== 0 && interfaceAddresses().includes(name));
}

/**
 * Refuses a request whose Host the server does not answer to, before cookies are trusted or origins compared. A
 * page whose name was rebound to this machine's address (DNS rebinding) is same-origin with itself, so the
 * cross-origin check passes it; only its Host header gives it away.
 */
export function registerHostCheck(app: FastifyInstance, isAllowed: (name: string) => boolean) {
  app.addHook("onRequest", async (request) => {
    const header = request.headers.host;
    const name = hostName(header);
    if (name !== undefined && isAllowed(name)) return;
    const shown = name ?? (header ? JSON.stringify(header.slice(0, 100)) : "(none)");
    throw new AppError(
      "host_not_allowed",
      403,
      `SAGE does not answer to the name ${shown}. Open it at its own address or localhost, or add the name to SAGE_ALLOWED_HOSTS.`,
    );
  });
}
