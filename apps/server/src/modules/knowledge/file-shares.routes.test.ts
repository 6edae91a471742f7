import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARE_TEXTS } from "@sage/contracts/shares";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";

const DAY = 86_400_000;
const START = new Date("2026-12-06T09:00:00.000Z");
let clock: Date;
let t: TestApp;
let cookie: string;
let kb: ReturnType<typeof knowledgeClient>;

beforeEach(async () => {
  clock = START;
  t = await createTestApp({ now: () => clock });
  cookie = await t.login();
  kb = knowledgeClient(t, cookie);
});
afterEach(async () => t.close());

const MEMO = "Q3 memo. Revenue grew eleven percent against plan.\n";

async function upload(filename: string, content: string | Buffer, parentId = 0) {
  const response = await kb.upload({ parentId }, { filename, content: Buffer.from(content) });
  expect(response.statusCode).toBe(200);
  return response.json().file as { id: number; name: string };
}

async function share(fileId: number, body: object = {}) {
  const response = await kb.call("POST", `/api/files/${fileId}/share`, body);
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; url: string; fileId: number; fileName: string; expiresAt: string };
}

/** Opens a link as anyone would: no cookie at all. */
const open = (url: string) => t.app.inject({ method: "GET", url: new URL(url).pathname });
const listed = async (session = cookie) => (await t.app.inject({ method: "GET", url: "/api/shares", headers: { cookie: session } })).json() as { id: number }[];

describe("sharing a file by link", () => {
  it("makes a long random link that anyone opens without signing in, read-only, for 7 days", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const made = await share(memo.id);
    expect(made).toMatchObject({ fileId: memo.id, fileName: "q3-memo.txt", expiresAt: new Date(START.getTime() + 7 * DAY).toISOString() });
    const token = /\/shared\/([^/?#]+)$/.exec(made.url)?.[1] ?? "";
    // 32 random bytes, base64url: 43 characters.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(made.url).pathname.startsWith("/api/")).toBe(false);

    const opened = await open(made.url);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toBe(MEMO);
    expect(opened.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(opened.headers["content-disposition"]).toMatch(/^inline; filename="q3-memo.txt"/);
    expect(opened.headers["x-content-type-options"]).toBe("nosniff");
    expect(opened.headers["cache-control"]).toMatch(/no-store/);
    expect(opened.headers["cache-control"]).toMatch(/private/);

    // Read-only: the link answers nothing but GET (and HEAD).
    const written = await t.app.inject({ method: "POST", url: new URL(made.url).pathname, payload: { text: "changed" } });
    expect(written.statusCode).toBe(404);
    expect((await open(made.url)).body).toBe(MEMO);

    // The list shows the live link, never the link itself (only its hash is kept).
    const shares = await listed();
    expect(shares).toEqual([{ id: made.id, fileId: memo.id, fileName: "q3-memo.txt", createdAt: START.toISOString(), expiresAt: made.expiresAt }]);
    expect(JSON.stringify(shares)).not.toContain(token);
  });

  it("has anything but text, PDFs and pictures saved, never shown, with the type its name says", async () => {
    const page = await upload("offsite.html", "<html><body><script>alert(1)</script>Offsite plan</body></html>");
    const opened = await open((await share(page.id)).url);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(opened.headers["content-disposition"]).toMatch(/^attachment; filename="offsite.html"/);
    expect(opened.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("lasts as many days as asked, then answers the same plain 404 as an unknown, a malformed or a stopped link", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const oneDay = await share(memo.id, { expiresInDays: 1 });
    expect(oneDay.expiresAt).toBe(new Date(START.getTime() + DAY).toISOString());
    const stopped = await share(memo.id);
    expect((await open(oneDay.url)).statusCode).toBe(200);

    const stop = await kb.call("DELETE", `/api/shares/${stopped.id}`);
    expect(stop.statusCode).toBe(204);
    expect(stop.body).toBe("");
    clock = new Date(START.getTime() + DAY + 1);

    const answers = await Promise.all([
      open(oneDay.url),
      open(stopped.url),
      t.app.inject({ method: "GET", url: `/shared/${randomBytes(32).toString("base64url")}` }),
      t.app.inject({ method: "GET", url: "/shared/not-a-token" }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(answer.headers["cache-control"]).toMatch(/no-store/);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(answers[0]!.body).toContain(SHARE_TEXTS.linkGone);
    expect(answers[0]!.body).not.toMatch(/q3-memo|expired on|revoked|stopped on/i);
    expect(await listed()).toEqual([]);
  });

  it("ends a file's links when the file, or the folder holding it, is deleted", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const board = await kb.folder("Board");
    const minutes = await upload("minutes.txt", "Board minutes.\n", board.id);
    const memoLink = await share(memo.id);
    const minutesLink = await share(minutes.id);
    expect((await kb.call("DELETE", `/api/files/${memo.id}`)).statusCode).toBe(200);
    expect((await kb.call("DELETE", `/api/files/${board.id}`)).statusCode).toBe(200);
    expect((await open(memoLink.url)).statusCode).toBe(404);
    expect((await open(minutesLink.url)).statusCode).toBe(404);
    expect(await listed()).toEqual([]);
  });

  it("keeps each user's links their own: another user neither lists, stops nor makes one", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const made = await share(memo.id);
    const other = await t.loginAsNewUser();
    expect(await listed(other.cookie)).toEqual([]);
    const stop = await t.app.inject({ method: "DELETE", url: `/api/shares/${made.id}`, headers: { cookie: other.cookie } });
    expect(stop.statusCode).toBe(404);
    expect(stop.json()).toEqual({ error: SHARE_TEXTS.shareNotFound, code: "share_not_found" });
    const theirs = await t.app.inject({ method: "POST", url: `/api/files/${memo.id}/share`, headers: { cookie: other.cookie }, payload: {} });
    expect(theirs.statusCode).toBe(404);
    expect((await open(made.url)).body).toBe(MEMO);
    expect(await listed()).toHaveLength(1);
    expect(await listed(other.cookie)).toEqual([]);
  });

  it("refuses bad input with a clear JSON error, changing nothing", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const folder = await kb.folder("Board");
    for (const expiresInDays of [0, 91, 2.5, "7", null]) {
      const response = await kb.call("POST", `/api/files/${memo.id}/share`, { expiresInDays });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: SHARE_TEXTS.expiresInDays });
    }
    const ofFolder = await kb.call("POST", `/api/files/${folder.id}/share`, {});
    expect(ofFolder.statusCode).toBe(400);
    expect(ofFolder.json()).toEqual({ error: SHARE_TEXTS.notShareable, code: "not_shareable" });
    expect((await kb.call("POST", "/api/files/999999/share", {})).statusCode).toBe(404);
    expect((await kb.call("DELETE", "/api/shares/999999")).json()).toEqual({ error: SHARE_TEXTS.shareNotFound, code: "share_not_found" });
    expect((await kb.call("DELETE", "/api/shares/abc")).statusCode).toBe(400);
    expect(await listed()).toEqual([]);
  });

  it("needs a session for every /api share route", async () => {
    const memo = await upload("q3-memo.txt", MEMO);
    const made = await share(memo.id);
    for (const [method, url] of [
      ["POST", `/api/files/${memo.id}/share`],
      ["GET", "/api/shares"],
      ["DELETE", `/api/shares/${made.id}`],
    ] as const) {
      const response = await t.app.inject({ method, url, ...(method === "POST" ? { payload: {} } : {}) });
      expect(response.statusCode).toBe(401);
    }
    expect(await listed()).toHaveLength(1);
  });
});
