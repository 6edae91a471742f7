import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { freePort } from "./local-server.ts";
import { makeTempDir } from "./temp-dir.ts";

/** Where Debian's radicale package puts the server; tests that need it skip, saying so, when it is absent. */
export const RADICALE_BINARY = "/usr/bin/radicale";
export const radicaleInstalled = () => existsSync(RADICALE_BINARY);
export const RADICALE_MISSING = "Radicale is not installed (apt-get install -y radicale): the CalDAV integration tests are skipped";

export interface RadicaleServer {
  /** The server's root, as a user types it into a CalDAV account ("http://127.0.0.1:5232/"). */
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  /** Makes a calendar collection of the user's; answers its URL. */
  makeCalendar(name: string, displayName?: string): Promise<string>;
  /** Writes an event object (a whole VCALENDAR text) into a calendar, behind SAGE's back. */
  putEvent(calendarUrl: string, filename: string, ics: string): Promise<void>;
  /** Every object of a calendar as the server holds it (Radicale answers a collection's GET with all its events). */
  calendarText(calendarUrl: string): Promise<string>;
  /** Makes an address book (CardDAV) of the user's; answers its URL. */
  makeAddressBook(name: string, displayName?: string): Promise<string>;
  /** Writes a contact (a whole vCard text) into an address book, behind SAGE's back. */
  putCard(addressBookUrl: string, filename: string, vcard: string): Promise<void>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Radicale exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Radicale did not start listening: ${log()}`);
}

/**
 * A real Radicale CalDAV and CardDAV server on a free loopback port, its collections and its own config file in a temporary
 * folder, with one user (htpasswd, plain text: loopback only) who may reach only their own calendars.
 */
export async function startRadicale(
  options: {
    user?: string;
    password?: string;
    /**
     * Google's CalDAV: bearer tokens instead of passwords. Radicale then trusts X-Remote-User, set only by a proxy in
     * front of it (`url`) that asks the identity server about each token: active, with this scope, and its email the
     * calendar's user (401 with WWW-Authenticate: Bearer otherwise, 403 without the scope).
     */
    bearer?: { scope: string; introspect(token: string): Promise<{ active: boolean; email?: string; scope?: string }> };
  } = {},
): Promise<RadicaleServer> {
  const user = options.user ?? "anna";
  const password = options.password ?? "calendar-password-1";
  const temp = makeTempDir("sage-radicale-");
  const dir = temp.dir;
  const port = await freePort();
  mkdirSync(path.join(dir, "collections"));
  writeFileSync(path.join(dir, "users"), `${user}:${password}\n`);
  writeFileSync(
    path.join(dir, "config"),
    `[server]
hosts = 127.0.0.1:${port}

[auth]
${options.bearer ? "type = http_x_remote_user" : `type = htpasswd\nhtpasswd_filename = ${dir}/users\nhtpasswd_encryption = plain`}
delay = 0

[rights]
type = owner_only

[storage]
filesystem_folder = ${dir}/collections

[web]
type = none

[logging]
level = warning
mask_passwords = True
`,
  );
  let output = "";
  const child: ChildProcess = spawn(RADICALE_BINARY, ["--config", path.join(dir, "config")], { stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  try {
    await waitForPort(port, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    temp.remove();
    throw error;
  }
  const direct = `http://127.0.0.1:${port}/`;
  const proxy = options.bearer ? await bearerProxy(port, options.bearer) : null;
  const url = proxy ? `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/` : direct;
  // Seeding talks to Radicale itself, as its owner.
  const credentials: Record<string, string> = options.bearer
    ? { "x-remote-user": user }
    : { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` };
  const request = async (method: string, target: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(target.replace(url, direct), { method, body, headers: { ...credentials, ...headers } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${target}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  return {
    url,
    host: "127.0.0.1",
    port,
    user,
    password,
    async makeCalendar(name, displayName = name) {
      const target = `${url}${user}/${name}/`;
      await request(
        "MKCALENDAR",
        target,
        `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop><D:displayname>${displayName}</D:displayname>
  <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></D:prop></D:set>
</C:mkcalendar>`,
        { "content-type": "application/xml; charset=utf-8" },
      );
      return target;
    },
    async putEvent(calendarUrl, filename, ics) {
      await request("PUT", `${calendarUrl}${filename}`, ics, { "content-type": "text/calendar; charset=utf-8" });
    },
    calendarText: (calendarUrl) => request("GET", calendarUrl),
    async makeAddressBook(name, displayName = name) {
      const target = `${url}${user}/${name}/`;
      await request(
        "MKCOL",
        target,
        `<?xml version="1.0" encoding="utf-8"?>
<D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">
  <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype><D:displayname>${displayName}</D:displayname></D:prop></D:set>
</D:mkcol>`,
        { "content-type": "application/xml; charset=utf-8" },
      );
      return target;
    },
    async putCard(addressBookUrl, filename, vcard) {
      await request("PUT", `${addressBookUrl}${filename}`, vcard, { "content-type": "text/vcard; charset=utf-8" });
    },
    async stop() {
      if (proxy) {
        proxy.closeAllConnections();
        await new Promise((resolve) => proxy.close(resolve));
      }
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      temp.remove();
    },
  };
}

/** The bearer-checking front of a Radicale that trusts X-Remote-User (see startRadicale's `bearer`). */
async function bearerProxy(radicalePort: number, bearer: NonNullable<Parameters<typeof startRadicale>[0]>["bearer"] & object): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const token = /^Bearer (.+)$/.exec(incoming.headers.authorization ?? "")?.[1];
    const refuse = (status: number) => {
      outgoing.writeHead(status, { "www-authenticate": `Bearer realm="caldav", error="invalid_token"`, "content-type": "text/plain" });
      outgoing.end(status === 401 ? "Unauthorized" : "Forbidden");
    };
    if (!token) return refuse(401);
    bearer.introspect(token).then(
      (answer) => {
        if (!answer.active || !answer.email) return refuse(401);
        if (!(answer.scope ?? "").split(" ").includes(bearer.scope)) return refuse(403);
        const headers = { ...incoming.headers, host: `127.0.0.1:${radicalePort}`, "x-remote-user": answer.email };
        delete headers.authorization;
        const forward = httpRequest({ host: "127.0.0.1", port: radicalePort, method: incoming.method, path: incoming.url, headers }, (answered) => {
          outgoing.writeHead(answered.statusCode ?? 502, answered.headers);
          answered.pipe(outgoing);
        });
        forward.on("error", () => refuse(502));
        incoming.pipe(forward);
      },
      () => refuse(503),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
