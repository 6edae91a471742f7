import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SafeFetchError, safeFetch } from "../http/safe-fetch.ts";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

/**
 * Server-side request forgery: every way of pointing a fetch at the server's own network is refused unless
 * SAGE_FETCH_ALLOW_PRIVATE is on, for literal URLs, redirects and host names resolving to private addresses.
 * Host names under .rebind.test resolve through the mocked DNS below. No packet may leave the loopback
 * interface: a safety net on net.Socket refuses any connection to another address, and the assertions require
 * the guard's own refusal (blocked_address), so a broken guard fails here instead of sending traffic.
 */
const REBIND: Record<string, string[]> = {
  "loopback.rebind.test": ["127.0.0.1"],
  "ten.rebind.test": ["10.1.2.3"],
  "private172.rebind.test": ["172.20.0.5"],
  "home.rebind.test": ["192.168.0.10"],
  "metadata.rebind.test": ["169.254.169.254"],
  "zero.rebind.test": ["0.0.0.0"],
  "v6loop.rebind.test": ["::1"],
  "ula.rebind.test": ["fd00::1"],
  "mapped.rebind.test": ["::ffff:192.168.1.1"],
  "nat64local.rebind.test": ["64:ff9b:1::c0a8:101"],
  "mixed.rebind.test": ["93.184.216.34", "10.0.0.1"],
};

vi.mock("node:dns", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const done = typeof options === "function" ? (options as typeof callback) : callback;
    const addresses = REBIND[hostname.toLowerCase()];
    if (!addresses) return (original.lookup as (...args: unknown[]) => unknown)(hostname, options, callback);
    const list = addresses.map((address) => ({ address, family: net.isIP(address) }));
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    queueMicrotask(() => (all ? done(null, list) : done(null, list[0]!.address, list[0]!.family)));
  };
  return { ...original, lookup, default: { ...original, lookup } };
});

const escaped: string[] = [];
const originalConnect = net.Socket.prototype.connect;
beforeAll(() => {
  // Safety net: wrap every socket's resolver so that only loopback addresses can ever be dialled from this test.
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const options = args[0];
    if (options && typeof options === "object" && !Array.isArray(options)) {
      const opts = options as { host?: string; lookup?: (...args: any[]) => unknown };
      if (opts.host && net.isIP(opts.host) && !/^127\.|^::1$/.test(opts.host)) {
        escaped.push(opts.host);
        throw new Error(`safety net: refused to dial ${opts.host}`);
      }
      if (opts.lookup) {
        const inner = opts.lookup;
        opts.lookup = (hostname: string, lookupOptions: unknown, callback: (...args: unknown[]) => void) =>
          inner(hostname, lookupOptions, (error: unknown, address: unknown, family: unknown) => {
            const list = Array.isArray(address) ? address.map((entry: { address: string }) => entry.address) : [address as string];
            const outside = !error && list.find((entry) => !/^127\.|^::1$/.test(entry));
            if (outside) {
              escaped.push(outside);
              return callback(new Error(`safety net: refused to dial ${outside}`), address, family);
            }
            callback(error, address, family);
          });
      }
    }
    return (originalConnect as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof net.Socket.prototype.connect;
});
afterAll(() => {
  net.Socket.prototype.connect = originalConnect;
});

const LITERALS: Record<string, string[]> = {
  loopback: [
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/x",
    "http://localhost/",
    "http://LOCALHOST:5000/",
    "http://app.localhost/",
    "http://localhost./",
    "http://app.localhost./",
    "http://127.0.0.1./",
  ],
  "10/8": ["http://10.0.0.1/", "http://10.255.255.254/admin"],
  "172.16/12": ["http://172.16.0.1/", "http://172.31.255.254/"],
  "192.168/16": ["http://192.168.0.1/", "http://192.168.255.254:8443/"],
  "169.254.169.254 and link-local": ["http://169.254.169.254/latest/meta-data/", "http://169.254.0.1/", "http://[fe80::1]/"],
  "0.0.0.0": ["http://0.0.0.0/", "http://0/", "http://0.0.0.0:5000/api/health"],
  "IPv6 loopback": ["http://[::1]/", "http://[0:0:0:0:0:0:0:1]/", "http://[::]/"],
  "IPv6 unique-local": ["http://[fc00::1]/", "http://[fd12:3456:789a::1]/", "http://[fd00:ec2::254]/"],
  "IPv4-mapped IPv6": [
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[0:0:0:0:0:ffff:c0a8:0101]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:7f00:1::]/",
  ],
  // Local-use NAT64 (RFC 8215): a network's own translator decides which IPv4 address these reach.
  "local-use NAT64": ["http://[64:ff9b:1::a00:1]/", "http://[64:ff9b:1:ffff:ffff::7f00:1]/", "http://[64:ff9b:1::a9fe:a9fe]/"],
  "decimal/octal/hex spellings": [
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f000001/",
    "http://017700000001/",
    "http://127.1/",
    "http://0xa9fea9fe/",
    "http://2852039166/",
    "http://3232235777/",
    "http://0300.0250.0.1/",
    "http://0xA.0.0.1/",
  ],
};
const NAMES = Object.keys(REBIND).map((name) => `http://${name}/`);

let site: Server;
let siteHost: string;
beforeAll(async () => {
  site = createServer((request, response) => {
    const target = new URL(request.url ?? "/", "http://x").searchParams.get("to");
    if (target) {
      response.writeHead(Number(new URL(request.url ?? "/", "http://x").searchParams.get("status") ?? 302), { location: target });
      return response.end();
    }
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("Loopback page about kingfishers.");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => site.close());

const counts: Record<string, number> = {};
const count = (kind: string, n = 1) => (counts[kind] = (counts[kind] ?? 0) + n);
afterAll(() => {
  mkdirSync("reports", { recursive: true });
  writeFileSync("reports/fetch-guard-report.json", JSON.stringify({ payloadsPerClass: counts, escaped }, null, 2));
});

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    return error as SafeFetchError;
  }
  throw new Error("the fetch was not refused");
}

describe("safeFetch refuses private destinations", () => {
  it.each(Object.entries(LITERALS))("literal %s", async (kind, urls) => {
    for (const url of urls) {
      const error = await refusal(safeFetch(url, { allowPrivate: false, timeoutMs: 3000 }));
      expect(`${url}: ${error.code} ${error.message}`).toMatch(/: blocked_address Refusing to fetch .*local or private network address/);
    }
    count(`literal: ${kind}`, urls.length);
  });

  it("host names resolving to private addresses (DNS answers checked at connect time)", async () => {
    for (const url of NAMES) {
      const error = await refusal(safeFetch(url, { allowPrivate: false, timeoutMs: 3000 }));
      expect(`${url}: ${error.code}`).toBe(`${url}: blocked_address`);
    }
    count("host name resolving to private", NAMES.length);
  });

  it("redirects to every literal and name above, with each redirect status, even from a trusted first hop", async () => {
    const targets = [...Object.values(LITERALS).flat(), ...NAMES];
    const statuses = [301, 302, 303, 307, 308];
    for (const [index, target] of targets.entries()) {
      const status = statuses[index % statuses.length]!;
      const start = `http://${siteHost}/?status=${status}&to=${encodeURIComponent(target)}`;
      const error = await refusal(safeFetch(start, { allowPrivate: false, allowHosts: [siteHost], timeoutMs: 3000 }));
      expect(`${target} (${status}): ${error.code}`).toBe(`${target} (${status}): blocked_address`);
    }
    // A redirect to another scheme is refused too.
    expect(
      (await refusal(safeFetch(`http://${siteHost}/?to=${encodeURIComponent("file:///etc/passwd")}`, { allowPrivate: false, allowHosts: [siteHost] }))).code,
    ).toBe("invalid_url");
    count("redirect to private", targets.length + 1);
  });

  it("fetches the loopback page only when private fetching is enabled (control)", async () => {
    expect((await refusal(safeFetch(`http://${siteHost}/`, { allowPrivate: false }))).code).toBe("blocked_address");
    const page = await safeFetch(`http://${siteHost}/`, { allowPrivate: true });
    expect(page.body.toString()).toBe("Loopback page about kingfishers.");
    expect(escaped).toEqual([]);
  });
});

describe("POST /api/process_url refuses private destinations", () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it("keeps each as a failed reference with the refusal, fetching nothing", async () => {
    t = await createTestApp();
    const kb = knowledgeClient(t, await t.login());
    const urls = [...Object.values(LITERALS).flat(), ...NAMES, `http://${siteHost}/?to=${encodeURIComponent("http://169.254.169.254/")}`];
    for (const url of urls) {
      const response = await kb.call("POST", "/api/process_url", { url });
      expect(`${url}: ${response.statusCode}`).toBe(`${url}: 422`);
      expect(response.json().error, url).toMatch(/local or private network address/);
    }
    const items = (await kb.call("GET", "/api/files")).json() as Array<{ status: string; chunkCount: number }>;
    expect(items).toHaveLength(urls.length);
    expect(items.every((item) => item.status === "failed" && item.chunkCount === 0)).toBe(true);
    expect(escaped).toEqual([]);
    count("process_url end to end", urls.length);
  });
});
