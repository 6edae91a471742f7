import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MOVE_INTO_ITSELF_MESSAGE } from "@sage/contracts/knowledge";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";

let t: TestApp;
let cookie: string;
let kb: ReturnType<typeof knowledgeClient>;

beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
  kb = knowledgeClient(t, cookie);
});
afterEach(async () => t.close());

const txt = (text: string) => ({ filename: "notes.txt", content: Buffer.from(text), type: "text/plain" });

describe("knowledge tree", () => {
  it("answers the routes-test probe", async () => {
    const response = await kb.call("GET", "/api/debug/routes-test");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "success" });
  });

  it("creates nested folders with slash-joined paths and lists them as a tree", async () => {
    const projects = await kb.folder("Projects");
    const apollo = await kb.folder("Apollo", projects.id);
    expect(apollo.path).toBe("Projects/Apollo");
    const upload = await kb.upload({ userId: 3, conversationId: 0, parentId: apollo.id, description: "Plan" }, txt("Launch window opens in March."));
    expect(upload.statusCode).toBe(200);
    expect(upload.json().file).toMatchObject({ path: "Projects/Apollo/notes.txt", parentId: apollo.id, conversationId: 0, description: "Plan" });

    const tree = (await kb.call("GET", "/api/folders?userId=3")).json();
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: "Projects", type: "folder", parentId: 0, items: [{ name: "Apollo", path: "Projects/Apollo", items: [] }] });

    const files = (await kb.call("GET", "/api/files?userId=3")).json() as Array<{ name: string; path: string }>;
    expect(files.map((item) => item.path).sort()).toEqual(["Projects", "Projects/Apollo", "Projects/Apollo/notes.txt"]);
    const inApollo = (await kb.call("GET", `/api/files?userId=3&parentId=${apollo.id}`)).json();
    expect(inApollo.map((item: { name: string }) => item.name)).toEqual(["notes.txt"]);
  });

  it("refuses a blank folder name and a parent that is not a folder, creating nothing", async () => {
    const blank = await kb.call("POST", "/api/folders", { name: "   ", type: "folder", parentId: 0 });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatch(/Name is required/);
    const note = (await kb.call("POST", "/api/files", { type: "note", content: "A short note", parentId: 0 })).json();
    const underNote = await kb.call("POST", "/api/folders", { name: "Inside", parentId: note.id });
    expect(underNote.statusCode).toBe(400);
    expect(underNote.json().error).toBe("The parent must be a folder");
    expect((await kb.call("GET", "/api/files")).json()).toHaveLength(1);
  });

  it("refuses a '/' in a folder name or a rename, since paths are joined with it", async () => {
    const slashed = await kb.call("POST", "/api/folders", { name: "Q1/Q2", type: "folder", parentId: 0 });
    expect(slashed.statusCode).toBe(400);
    expect(slashed.json().error).toMatch(/Name cannot contain '\/'/);
    const folder = await kb.folder("Plans");
    const rename = await kb.call("PATCH", `/api/files/${folder.id}`, { name: "a/b" });
    expect(rename.statusCode).toBe(400);
    expect((await kb.call("GET", "/api/files")).json().map((item: { name: string }) => item.name)).toEqual(["Plans"]);
  });

  it("renaming or moving a folder updates the path of every descendant", async () => {
    const a = await kb.folder("A");
    const b = await kb.folder("B", a.id);
    const file = (await kb.upload({ parentId: b.id }, txt("Deep file"))).json().file;
    const target = await kb.folder("Archive");

    const renamed = await kb.call("PATCH", `/api/files/${a.id}`, { name: "Alpha" });
    expect(renamed.json().path).toBe("Alpha");
    expect((await kb.call("GET", "/api/files")).json().find((item: { id: number }) => item.id === file.id).path).toBe("Alpha/B/notes.txt");

    const moved = await kb.call("PATCH", `/api/files/${a.id}`, { parentId: target.id });
    expect(moved.statusCode).toBe(200);
    const paths = Object.fromEntries((await kb.call("GET", "/api/files")).json().map((item: { id: number; path: string }) => [item.id, item.path]));
    expect(paths[a.id]).toBe("Archive/Alpha");
    expect(paths[b.id]).toBe("Archive/Alpha/B");
    expect(paths[file.id]).toBe("Archive/Alpha/B/notes.txt");

    const backToRoot = await kb.call("PATCH", `/api/files/${b.id}`, { parentId: 0 });
    expect(backToRoot.json()).toMatchObject({ parentId: 0, path: "B" });
    expect((await kb.call("GET", "/api/files")).json().find((item: { id: number }) => item.id === file.id).path).toBe("B/notes.txt");
  });

  it("refuses to move a folder into itself or its descendants, and a blank rename", async () => {
    const a = await kb.folder("A");
    const b = await kb.folder("B", a.id);
    for (const parentId of [a.id, b.id]) {
      const response = await kb.call("PATCH", `/api/files/${a.id}`, { parentId });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(MOVE_INTO_ITSELF_MESSAGE);
    }
    const blank = await kb.call("PATCH", `/api/files/${a.id}`, { name: "  " });
    expect(blank.statusCode).toBe(400);
    expect((await kb.call("GET", "/api/files")).json().find((item: { id: number }) => item.id === a.id)).toMatchObject({ name: "A", parentId: 0 });
  });

  it("deleting a folder deletes its contents, their chunks and their stored bytes", async () => {
    const folder = await kb.folder("Old");
    const inner = await kb.folder("Inner", folder.id);
    const file = (await kb.upload({ parentId: inner.id }, txt("Something worth deleting later."))).json().file;
    const keep = (await kb.upload({ parentId: 0 }, { ...txt("Keep me around."), filename: "keep.txt" })).json().file;
    expect((await kb.chunks(file.id)).length).toBeGreaterThan(0);
    expect(readdirSync(t.store.uploadsDir)).toHaveLength(2);

    const response = await kb.call("DELETE", `/api/files/${folder.id}`);
    expect(response.json()).toEqual({ ok: true, deleted: 3 });
    const remaining = (await kb.call("GET", "/api/files")).json();
    expect(remaining.map((item: { id: number }) => item.id)).toEqual([keep.id]);
    expect(await kb.chunks(file.id)).toEqual([]);
    expect(readdirSync(t.store.uploadsDir)).toHaveLength(1);
    expect((await kb.call("DELETE", `/api/files/${folder.id}`)).statusCode).toBe(404);
  });

  it("edits a description and downloads the original bytes under the original filename", async () => {
    const bytes = Buffer.from("Original bytes \u00e9\n", "utf8");
    // The uploader claims text/html; the download must not hand that type back.
    const file = (await kb.upload({}, { filename: "Résumé 2024.txt", content: bytes, type: "text/html" })).json().file;
    const edited = await kb.call("PATCH", `/api/files/${file.id}`, { description: "My CV" });
    expect(edited.json().description).toBe("My CV");
    expect((await kb.call("GET", `/api/files/${file.id}`)).json()).toEqual(edited.json());

    const download = await kb.call("GET", `/api/files/${file.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(download.headers["content-disposition"]).toBe(`attachment; filename="R_sum_ 2024.txt"; filename*=UTF-8''${encodeURIComponent("Résumé 2024.txt")}`);
    const folder = await kb.folder("F");
    expect((await kb.call("GET", `/api/files/${folder.id}/download`)).statusCode).toBe(400);
  });

  it("opens a PDF, a picture or a text in the browser with ?inline=1, safely; other kinds are still saved", async () => {
    const pdf = (await kb.upload({}, { filename: "Board pack.pdf", content: Buffer.from("%PDF-1.4\n%%EOF\n"), type: "application/pdf" })).json().file;
    const opened = await kb.call("GET", `/api/files/${pdf.id}/download?inline=1`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers["content-type"]).toBe("application/pdf");
    expect(opened.headers["content-disposition"]).toBe(`inline; filename="Board pack.pdf"; filename*=UTF-8''Board%20pack.pdf`);
    expect(opened.headers["x-content-type-options"]).toBe("nosniff");
    expect(opened.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    expect((await kb.call("GET", `/api/files/${pdf.id}/download`)).headers["content-disposition"]).toMatch(/^attachment;/);
    // An uploaded web page opens as plain text: its markup shows, its scripts never run on SAGE's origin.
    const page = (await kb.upload({}, { filename: "page.html", content: Buffer.from("<script>alert(1)</script>"), type: "text/html" })).json().file;
    const shown = await kb.call("GET", `/api/files/${page.id}/download?inline=1`);
    expect(shown.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(shown.headers["content-disposition"]).toMatch(/^inline;/);
    // A sheet opens as text; a mail, which the browser cannot show, is saved even when asked to open. A bad value is a 400.
    const sheet = (await kb.upload({}, { filename: "Budget.csv", content: Buffer.from("a,b\n1,2\n"), type: "text/csv" })).json().file;
    expect((await kb.call("GET", `/api/files/${sheet.id}/download?inline=1`)).headers["content-type"]).toBe("text/plain; charset=utf-8");
    const mail = (
      await kb.upload({}, { filename: "Note.eml", content: Buffer.from("Subject: Hi\r\n\r\nHello there, board.\r\n"), type: "message/rfc822" })
    ).json().file;
    expect((await kb.call("GET", `/api/files/${mail.id}/download?inline=1`)).headers["content-disposition"]).toMatch(/^attachment;/);
    expect((await kb.call("GET", `/api/files/${pdf.id}/download?inline=yes`)).statusCode).toBe(400);
  });

  it("keeps each user's knowledge private: another user's ids are 404 and a foreign userId is 403", async () => {
    const folder = await kb.folder("Mine");
    const file = (await kb.upload({ parentId: folder.id }, txt("Private text"))).json().file;
    const other = await t.loginAsNewUser();
    const as = (method: "GET" | "PATCH" | "DELETE" | "POST", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: other.cookie }, ...(payload ? { payload } : {}) });

    expect((await as("GET", "/api/files")).json()).toEqual([]);
    expect((await as("GET", "/api/folders")).json()).toEqual([]);
    expect((await as("PATCH", `/api/files/${file.id}`, { name: "stolen" })).statusCode).toBe(404);
    expect((await as("DELETE", `/api/files/${folder.id}`)).statusCode).toBe(404);
    expect((await as("GET", `/api/files/${file.id}/download`)).statusCode).toBe(404);
    expect((await as("GET", `/api/files/${file.id}`)).statusCode).toBe(404);
    expect((await as("POST", "/api/folders", { name: "Sneaky", parentId: folder.id })).statusCode).toBe(404);
    expect((await as("GET", "/api/files?userId=3")).statusCode).toBe(403);
    const foreignUpload = knowledgeClient(t, other.cookie).upload({ userId: 3 }, txt("x"));
    expect((await foreignUpload).statusCode).toBe(403);
    expect((await kb.call("GET", `/api/files/${file.id}/download`)).statusCode).toBe(200);
  });

  it("lists a conversation's files, and 404s for a conversation that is not the user's", async () => {
    const now = new Date().toISOString();
    const conversationId = (
      await t.store.db.insertInto("conversations").values({ userId: 3, name: "Chat", createdAt: now, updatedAt: now }).returning("id").executeTakeFirstOrThrow()
    ).id;
    const file = (await kb.upload({ conversationId }, txt("Conversation scoped fact."))).json().file;
    await kb.upload({ conversationId: 0 }, { ...txt("System fact."), filename: "system.txt" });
    expect(file.conversationId).toBe(conversationId);
    expect((await kb.chunks(file.id))[0]!.conversationId).toBe(conversationId);
    const listed = (await kb.call("GET", `/api/conversations/${conversationId}/files`)).json();
    expect(listed.map((item: { name: string }) => item.name)).toEqual(["notes.txt"]);

    const other = await t.loginAsNewUser();
    const foreign = await t.app.inject({ method: "GET", url: `/api/conversations/${conversationId}/files`, headers: { cookie: other.cookie } });
    expect(foreign.statusCode).toBe(404);
    const foreignUpload = await knowledgeClient(t, other.cookie).upload({ conversationId }, txt("x"));
    expect(foreignUpload.statusCode).toBe(404);
  });

  it("validates ids and bodies with clear 400s", async () => {
    expect((await kb.call("PATCH", "/api/files/abc", { name: "x" })).statusCode).toBe(400);
    const empty = await kb.call("PATCH", "/api/files/1", {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatch(/Nothing to change/);
    expect((await kb.call("POST", "/api/files", { type: "pdf" })).statusCode).toBe(400);
    expect((await kb.call("POST", "/api/files", { type: "url", content: "javascript:alert(1)" })).json().error).toBe("Please enter a valid http or https URL");
  });
});

describe("where files live", () => {
  it("keeps uploaded bytes in the folder SAGE_FILES_DIR names, outside the data folder, and serves them from there", async () => {
    const files = makeTempDir("sage-files-");
    const shared = await createTestApp({ env: { SAGE_FILES_DIR: files.dir } });
    try {
      const client = knowledgeClient(shared, await shared.login());
      const bytes = Buffer.from("Quarterly numbers, kept where every SAGE process can read them.\n");
      const file = (await client.upload({}, { filename: "q3.txt", content: bytes, type: "text/plain" })).json().file;
      expect(readdirSync(files.dir)).toHaveLength(1);
      expect(existsSync(path.join(shared.store.dataDir, "uploads")) ? readdirSync(path.join(shared.store.dataDir, "uploads")) : []).toEqual([]);
      expect((await client.call("GET", `/api/files/${file.id}/download`)).rawPayload.equals(bytes)).toBe(true);
      await client.call("DELETE", `/api/files/${file.id}`);
      expect(readdirSync(files.dir)).toEqual([]);
    } finally {
      await shared.close();
      files.remove();
    }
  });
});
