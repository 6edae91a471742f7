import { afterEach, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { startServerProcess } from "./server-process.ts";

const PASSWORD = "Zq9-account-password-4471";
const TOKEN = "ya29.account-token-8812";
const CALDAV_PASSWORD = "Cal-dav-password-5521";
const ICS_SECRET = "private-9c1e7f2a";
const WRONG_FEED_TOKEN = "W".repeat(43);
let feedToken = "no-feed-token-yet";
const temp = makeTempDir();
afterEach(() => temp.remove());

it("an account's password and token appear in no log line, at the most verbose level, whatever the account does", async () => {
  const server = await startServerProcess(temp.dir, { SAGE_LOG_LEVEL: "trace" });
  try {
    const cookie = await server.login();
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    const account = {
      kind: "mail",
      name: "Work mail",
      imap: { host: "127.0.0.1", port: 1993, secure: true, user: "anna@example.com", password: PASSWORD },
      smtp: { host: "127.0.0.1", port: 1465, secure: true, user: "anna@example.com", accessToken: TOKEN },
    };
    expect((await post("/api/accounts/test", account)).status).toBe(200);
    const created = await post("/api/accounts", account);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // A bad request echoes nothing of what was sent either.
    expect((await post("/api/accounts", { ...account, imap: { ...account.imap, port: "not a port" } })).status).toBe(400);
    for (let i = 0; i < 100; i++) {
      const [listed] = (await (await fetch(`${server.url}/api/accounts`, { headers: { cookie } })).json()) as { status: string }[];
      if (listed!.status !== "syncing") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await post(`/api/accounts/${id}/sync`, {})).status).toBe(202);
    // A calendar: its CalDAV password and the whole (secret) subscription address.
    expect(
      (await post("/api/accounts", { kind: "calendar", name: "Work", caldav: { url: "https://127.0.0.1:8443/dav/", user: "anna", password: CALDAV_PASSWORD } }))
        .status,
    ).toBe(201);
    expect((await post("/api/accounts", { kind: "calendar", name: "Google", icsUrl: `https://127.0.0.1:8443/ical/${ICS_SECRET}/basic.ics` })).status).toBe(201);
    // The reminders feed: its token is in the address a calendar app fetches, right or wrong.
    const { url } = (await (await fetch(`${server.url}/api/calendar/feed`, { headers: { cookie } })).json()) as { url: string };
    feedToken = new URL(url).pathname.split("/").pop()!.replace(".ics", "");
    expect((await fetch(`${server.url}${new URL(url).pathname}`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/calendar/${WRONG_FEED_TOKEN}.ics`)).status).toBe(404);
  } finally {
    await server.stop();
  }
  const log = server.stdout() + server.stderr();
  expect(log).toContain("/api/accounts"); // the requests were logged...
  expect(log).not.toContain(PASSWORD); // ...without the secrets
  expect(log).not.toContain(TOKEN);
  expect(log).toContain("/api/calendar/[secret].ics");
  for (const secret of [CALDAV_PASSWORD, ICS_SECRET, feedToken, WRONG_FEED_TOKEN]) expect(log).not.toContain(secret);
});
