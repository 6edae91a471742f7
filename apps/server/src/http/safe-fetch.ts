import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import type { Agent } from "undici";

export interface SafeFetchOptions {
  /** true only when the operator set SAGE_FETCH_ALLOW_PRIVATE (tests, home-lab setups). */
  allowPrivate: boolean;
  /** host[:port] values trusted even though they are private (an operator's allow-list; tests). */
  allowHosts?: string[];
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
}

export interface SafeFetchResult {
  /** The final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export type SafeFetchErrorCode = "invalid_url" | "blocked_address" | "timeout" | "too_large" | "too_many_redirects" | "http_error" | "network";

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SafeFetchError";
  }
}

const DEFAULTS = { timeoutMs: 15_000, maxBytes: 10 * 1_048_576, maxRedirects: 5 };

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the 169.254.169.254 cloud metadata service
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local (includes fd00:ec2::254, a metadata address)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
  ["64:ff9b:1::", 48], // local-use NAT64: the local translator, not the address, decides where it goes
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address embedded in an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address, if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:(?:0:)?|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const high = parseInt(sixToFour[1]!, 16);
    const low = parseInt(sixToFour[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** True for loopback, private, link-local, metadata, unique-local, multicast and reserved addresses. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family === 6) {
    const embedded = embeddedIpv4(bare);
    if (embedded) return isIP(embedded) !== 4 || blocked.check(embedded, "ipv4");
    return blocked.check(bare, "ipv6");
  }
  return true;
}

const blockedMessage = (host: string) => `Refusing to fetch ${host}: it is a local or private network address`;

/** DNS lookup that fails when any resolved address is blocked, so the check holds for the very address connected to. */
function guardedLookup(
  hostname: string,
  options: object,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    const bad = list.find((entry) => isBlockedAddress(entry.address));
    if (bad || list.length === 0) {
      return callback(Object.assign(new Error(blockedMessage(hostname)), { code: "SAGE_BLOCKED_ADDRESS" }), []);
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

const trusted = (url: URL, options: SafeFetchOptions) => options.allowPrivate || (options.allowHosts ?? []).includes(url.host);

// undici loads on the first fetch (it is not needed to start the server); the two agents are made once.
let agents: Promise<{ request: typeof import("undici").request; guarded: Agent; open: Agent }> | undefined;
const loadAgents = () =>
  (agents ??= import("undici").then(({ Agent, request }) => ({
    request,
    guarded: new Agent({ connect: { lookup: guardedLookup as never } }),
    open: new Agent(),
  })));

/**
 * undici's fetch with two dispatchers: `guarded` refuses, at connect time, a name resolving to a private address;
 * `open` is for hosts the operator trusts. For clients that bring their own requests (CalDAV).
 */
export const loadGuardedFetch = async () => {
  const [{ fetch }, { guarded, open }] = await Promise.all([import("undici"), loadAgents()]);
  return { fetch, guarded, open };
};

function checkUrl(raw: string, options: SafeFetchOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError("invalid_url", "The URL is not valid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SafeFetchError("invalid_url", "Only http and https URLs can be fetched");
  if (url.username || url.password) throw new SafeFetchError("invalid_url", "URLs with credentials are not fetched");
  // A trailing dot is the same name ("localhost." is localhost), so it must not slip past the name check.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (!trusted(url, options)) {
    if (isIP(host) && isBlockedAddress(host)) throw new SafeFetchError("blocked_address", blockedMessage(host));
    if (host === "localhost" || host.endsWith(".localhost")) throw new SafeFetchError("blocked_address", blockedMessage(host));
  }
  return url;
}

/**
 * Fetches a user-supplied URL from the server without letting it reach the server's own network: every hop
 * (redirects included) is checked, host names are checked on the addresses they resolve to at connect time,
 * and the whole exchange has a timeout, a body size cap and a redirect limit.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = checkUrl(rawUrl, options);
  const { request, guarded, open } = await loadAgents();
  try {
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method: "GET",
        dispatcher: trusted(url, options) ? open : guarded,
        signal,
        headers: {
          "user-agent": "SAGE knowledge fetcher",
          accept: options.accept ?? "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5",
        },
      });
      if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
        await response.body.dump();
        if (hop >= maxRedirects) throw new SafeFetchError("too_many_redirects", `Too many redirects (more than ${maxRedirects})`);
        const location = String(response.headers.location);
        url = checkUrl(new URL(location, url).toString(), options);
        continue;
      }
      if (response.statusCode >= 400) {
        await response.body.dump();
        throw new SafeFetchError("http_error", `The site answered ${response.statusCode}`);
      }
      const declared = Number(response.headers["content-length"] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.body.destroy();
        throw tooLarge(maxBytes);
      }
      const parts: Buffer[] = [];
      let size = 0;
      for await (const part of response.body) {
        size += (part as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw tooLarge(maxBytes);
        }
        parts.push(part as Buffer);
      }
      const contentType = String(response.headers["content-type"] ?? "").toLowerCase();
      return { url: url.toString(), status: response.statusCode, contentType, body: Buffer.concat(parts) };
    }
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    if (signal.aborted) throw new SafeFetchError("timeout", `The site did not answer within ${Math.round(timeoutMs / 1000)} seconds`);
    const cause = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    if (cause.code === "SAGE_BLOCKED_ADDRESS" || cause.cause?.code === "SAGE_BLOCKED_ADDRESS") {
      throw new SafeFetchError("blocked_address", cause.cause?.message ?? cause.message ?? blockedMessage(url.hostname));
    }
    throw new SafeFetchError("network", `The site could not be reached (${cause.code ?? cause.cause?.code ?? cause.message ?? "network error"})`);
  }
}

const tooLarge = (maxBytes: number) => new SafeFetchError("too_large", `The page is larger than the ${Math.round(maxBytes / 1_048_576)} MB limit`);
