import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { backupClient } from "../../test/backup-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

/** One entry of a zip, as text. */
function zipEntry(archive: Buffer, name: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (failure, stream) => {
          if (failure) return reject(failure);
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
        });
      });
      zip.on("end", () => resolve(null));
      zip.readEntry();
    });
  });
}

describe.skipIf(!installed)("accounts in a knowledge backup", () => {
  let dovecot: DovecotServer;
  beforeAll(async () => {
    dovecot = await startDovecot({ password: "backup-app-password" });
    const imap = await dovecot.session();
    for (const [n, subject, body] of [
      [1, "Harbour lease", "The harbour lease renews on 1 March at 12,400 a month."],
      [2, "Museum gala", "The museum gala seats you next to the mayor."],
    ] as const) {
      await imap.append(
        "INBOX",
        mailMessage({ from: "Anna Berg <anna@example.com>", to: "anna@example.com", subject, date: new Date(), messageId: `<b${n}@example.com>`, body }),
      );
    }
    await imap.close();
  });
  afterAll(async () => dovecot?.stop());

  const apps: TestApp[] = [];
  afterEach(async () => Promise.all(apps.splice(0).map((app) => app.close())));
  const env = { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", SAGE_EMBEDDER: "none" };
  const imapServer = () => ({ host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password });

  async function open() {
    const t = await createTestApp({ env });
    apps.push(t);
    const cookie = await t.login();
    const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const mailItems = async () =>
      (
        await t.store.db
          .selectFrom("knowledgeItems")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("name", "like", "%.eml")
          .executeTakeFirstOrThrow()
      ).n;
    return { t, api, backup: backupClient(t, cookie), mailItems };
  }

  it("a backup carries no secret; restored elsewhere the account asks for its password, then goes on without fetching again", async () => {
    const first = await open();
    await first.api("POST", "/api/accounts", { kind: "mail", name: "Work mail", folders: ["INBOX"], imap: imapServer() });
    await first.t.jobs.idle();
    const archive = await first.backup.exportZip();
    const accountsLines = await zipEntry(archive, "accounts.jsonl");
    expect(accountsLines).toContain('"name":"Work mail"');
    expect(accountsLines).not.toContain(dovecot.password);
    expect(accountsLines).not.toMatch(/secret|v1:/);
    expect(await zipEntry(archive, "mail-messages.jsonl")).toContain('"subject":"Harbour lease"');

    // Another machine: another data folder, another key.
    const second = await open();
    expect((await second.backup.importZip(archive)).statusCode).toBe(200);
    await second.t.jobs.idle();
    const [restored] = (await second.api("GET", "/api/accounts")).json();
    expect(restored).toMatchObject({ kind: "mail", name: "Work mail", status: "password-needed", counts: { messages: 2 }, folders: ["INBOX"] });
    expect(restored.imap).toEqual({ host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user });
    // Its mail is searchable meanwhile, and a sync without the password asks for it again.
    const hits = (await second.api("POST", "/api/search", { query: "harbour lease renews", limit: 5 })).json();
    expect(hits[0].content).toContain("12,400 a month");
    expect((await second.api("POST", `/api/accounts/${restored.id}/sync`)).json()).toMatchObject({ status: "password-needed" });

    const patched = await second.api("PATCH", `/api/accounts/${restored.id}`, { imap: imapServer() });
    expect(patched.statusCode).toBe(200);
    await second.t.jobs.idle();
    expect((await second.api("GET", "/api/accounts")).json()[0]).toMatchObject({ status: "ok", counts: { messages: 2 } });
    // The restored messages were recognised: nothing was fetched a second time.
    expect(await second.mailItems()).toBe(2);
  });

  it("restoring onto the same account keeps its password and adds no second account", async () => {
    const app = await open();
    await app.api("POST", "/api/accounts", { kind: "mail", name: "Work mail", folders: ["INBOX"], imap: imapServer() });
    await app.t.jobs.idle();
    const archive = await app.backup.exportZip();
    expect((await app.backup.importZip(archive)).statusCode).toBe(200);
    await app.t.jobs.idle();
    const accounts = (await app.api("GET", "/api/accounts")).json();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ status: "ok", counts: { messages: 2 } });
    await app.api("POST", `/api/accounts/${accounts[0].id}/sync`);
    await app.t.jobs.idle();
    expect((await app.api("GET", "/api/accounts")).json()[0]).toMatchObject({ status: "ok", counts: { messages: 2 } });
    expect(await app.mailItems()).toBe(2);
  });
});
