import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAME_CONTROL_MESSAGE } from "@sage/contracts/knowledge";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { BOUNDARY, DEEP_JSON_BODIES, DEEP_JSON_ERROR, FORM_ROUTES, HOSTILE_FORMS, fileHead, formClosing, formPost } from "./hostile-payloads.ts";
import { formPart, rawRequest } from "./raw-http.ts";
import { storeChanges } from "../test/store-changes.ts";

/**
 * Requests built to hang or crash the server, sent as raw bytes over real sockets: multipart forms with too many
 * fields, no boundary, no closing boundary or a part cut short, clients that go away mid-file, and JSON nested
 * 1,000 levels deep on every JSON route. Each must get a clear 4xx JSON error within seconds, change nothing and
 * leave no half-written upload behind.
 */
let t: TestApp;
let cookie: string;
let port: number;
let kb: ReturnType<typeof knowledgeClient>;

beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login();
  kb = knowledgeClient(t, cookie);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t?.close());

const totalChanges = () => storeChanges(t.store);
const uploadsFolder = () => (existsSync(t.config.files.dir) ? readdirSync(t.config.files.dir) : []);
const post = (url: string, body: Buffer, options: { contentType?: string; contentLength?: number } = {}) => formPost(url, cookie, body, options);

describe("multipart requests are always answered", () => {
  for (const route of FORM_ROUTES) {
    it.each(HOSTILE_FORMS)(`${route.url}: $label gets a 4xx with the reason, and nothing is kept`, async ({ body, contentType, status, error }) => {
      const before = await totalChanges();
      const reply = await rawRequest(port, post(route.url, body(route.filename), { contentType }));
      expect(reply.answered, "the server answered").toBe(true);
      expect(reply.status).toBe(status);
      expect(JSON.parse(reply.body)).toEqual({ error, code: expect.any(String) });
      expect(await totalChanges()).toBe(before);
      expect(uploadsFolder()).toEqual([]);
    });
  }

  it("a client that goes away half-way through a file leaves no half-written upload behind", async () => {
    const before = await totalChanges();
    for (const route of FORM_ROUTES) {
      const partial = Buffer.concat([fileHead(route.filename), randomBytes(200_000)]);
      await rawRequest(port, post(route.url, partial, { contentLength: partial.length + 1_000_000 }), { closeAfterWrite: true, waitMs: 500 });
    }
    const spooledZips = () =>
      (existsSync(path.join(t.config.dataDir, "tmp")) ? readdirSync(path.join(t.config.dataDir, "tmp")) : []).filter((name) => name.endsWith(".zip"));
    // The server notices the closed socket on its own time.
    await expect.poll(() => [...uploadsFolder(), ...spooledZips()]).toEqual([]);
    expect(await totalChanges()).toBe(before);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("a well-formed upload still works on the same server (control)", async () => {
    const body = Buffer.concat([
      formPart(BOUNDARY, "description", "Herons"),
      formPart(BOUNDARY, "file", "Herons wade in shallow water.", "herons.txt"),
      formClosing,
    ]);
    const reply = await rawRequest(port, post("/api/upload", body));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: "success", file: { name: "herons.txt", description: "Herons", status: "ready" } });
  });
});

describe("JSON nested 1,000 levels deep", () => {
  it("answers 400 on every JSON route, changing nothing", async () => {
    // Slack's events route refuses anything unsigned before reading its body (decision 077; slack-channel.routes.test.ts).
    const routes = t.routes.filter(
      (route) => route.url.startsWith("/api/") && ["POST", "PATCH", "PUT", "DELETE"].includes(route.method) && route.url !== "/api/channels/:id/slack-events",
    );
    expect(routes.length).toBeGreaterThan(20);
    expect(DEEP_JSON_BODIES["tools of a chat turn"].length).toBeGreaterThan(9_000);
    for (const route of routes) {
      for (const [shape, payload] of Object.entries(DEEP_JSON_BODIES)) {
        const before = await totalChanges();
        const url = route.url.replace(/:\w+/g, "1");
        const response = await t.app.inject({ method: route.method as "POST", url, headers: { cookie, "content-type": "application/json" }, payload });
        // A webhook's body is never parsed: it reaches the run as text, and a secret that is no schedule's is a 404
        // whatever the body (decision 105).
        const expected = route.url === "/api/hooks/:secret" ? 404 : 400;
        expect(`${route.method} ${url} (${shape}): ${response.statusCode}`).toBe(`${route.method} ${url} (${shape}): ${expected}`);
        if (expected === 400) expect(response.json()).toMatchObject({ error: DEEP_JSON_ERROR, code: "body_too_deep" });
        expect(await totalChanges()).toBe(before);
      }
    }
  });

  it("still takes ordinary nesting: tool parameters 20 levels deep are not refused (control)", async () => {
    let parameters: object = { type: "string" };
    for (let level = 0; level < 20; level++) parameters = { type: "array", items: parameters };
    const response = await t.app.inject({
      method: "POST",
      url: "/api/gemini/chat",
      headers: { cookie },
      payload: { messages: [{ role: "user", content: "Hello" }], tools: [{ functionDeclarations: [{ name: "shallow", parameters }] }] },
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(["body_too_deep", "validation_error"]).not.toContain(response.json().code);
  });
});

describe("the upload form's userId", () => {
  it.each([
    ["userId", ["4"]],
    ["user_id", ["4"]],
    ["userId", ["3", "4"]],
  ])("answers 403 for %s %j, as the JSON routes do, and stores nothing", async (name, values) => {
    const before = await totalChanges();
    const parts = values.map((value) => formPart(BOUNDARY, name, value));
    const body = Buffer.concat([...parts, formPart(BOUNDARY, "file", `Egrets ${name} ${values.join()}`, "egrets.txt"), formClosing]);
    const reply = await rawRequest(port, post("/api/upload", body));
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({ error: "userId does not match the logged-in user", code: "user_mismatch" });
    expect(await totalChanges()).toBe(before);
    expect(uploadsFolder().filter((name) => name.startsWith(".tmp-"))).toEqual([]);
  });
});

describe("names", () => {
  it("keeps the extension of a 1,000-character file name when it is cut to 255", async () => {
    const response = await kb.upload(
      {},
      { filename: `${"minutes-of-the-board-meeting-".repeat(35).slice(0, 1000)}.txt`, content: Buffer.from("The board met on Tuesday.") },
    );
    expect(response.statusCode).toBe(200);
    const { name } = response.json().file as { name: string };
    expect(name).toHaveLength(255);
    expect(name.endsWith(".txt")).toBe(true);
    expect(response.json().file.status).toBe("ready");
  });

  it("cuts between whole characters, never through an emoji", async () => {
    const response = await kb.upload({}, { filename: `${"🙂".repeat(300)}.txt`, content: Buffer.from("Smiles all round.") });
    const { name } = response.json().file as { name: string };
    expect(name.endsWith(".txt")).toBe(true);
    expect(name.length).toBeLessThanOrEqual(255);
    expect(name).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it.each(["Board\u0000papers", "Board\npapers", "Board\r\npapers", "Board\u2028papers", "Board\u0085papers"])(
    "refuses a folder named %j, and a rename to it",
    async (name) => {
      const folder = await kb.folder(`Plain ${Math.random()}`);
      const before = await totalChanges();
      const created = await kb.call("POST", "/api/folders", { name, type: "folder", parentId: 0 });
      expect(created.statusCode).toBe(400);
      expect(created.json().error).toContain(NAME_CONTROL_MESSAGE);
      const renamed = await kb.call("PATCH", `/api/files/${folder.id}`, { name });
      expect(renamed.statusCode).toBe(400);
      expect(renamed.json().error).toContain(NAME_CONTROL_MESSAGE);
      expect(await totalChanges()).toBe(before);
    },
  );

  it("a link whose address encodes a line break or a slash gets a one-line name", async () => {
    const response = await kb.call("POST", "/api/files", { type: "url", url: "https://example.com/reports/q3%0Aplan%00%2Fdraft.pdf" });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe("example.com - q3 plan -draft");
  });
});
