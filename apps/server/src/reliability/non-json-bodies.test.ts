/**
 * A JSON route takes JSON only (issue 36): a multipart form POSTed to /api/conversations with no Origin created an
 * empty conversation, because every route let multipart bodies through unread. Only the two upload routes take
 * multipart; any other body that is not JSON is a 415 that changes nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { knowledgeClient, multipartBody } from "../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { storeChanges } from "../test/store-changes.ts";

let t: TestApp;
afterEach(async () => t?.close());
const totalChanges = () => storeChanges(t.store);

const NOT_JSON = { code: "unsupported_media_type", error: "This request takes a JSON body (Content-Type: application/json)" };

describe("a body that is not JSON, sent to a JSON route", () => {
  it("is refused with 415 on every state-changing JSON route, changing nothing", async () => {
    t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "100000" } });
    const cookie = await t.login();
    const form = multipartBody({ name: "From a form", userId: 3 });
    const bodies: Array<{ label: string; headers: Record<string, string>; payload: string | Buffer }> = [
      { label: "multipart form", headers: form.headers, payload: form.payload },
      { label: "text/plain", headers: { "content-type": "text/plain" }, payload: '{"name":"From text"}' },
      { label: "urlencoded form", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "name=From+a+form" },
      { label: "octet-stream", headers: { "content-type": "application/octet-stream" }, payload: "bytes" },
      { label: "no content type", headers: {}, payload: '{"name":"No type"}' },
    ];
    const routes = t.routes.filter((route) => route.url.startsWith("/api/") && ["POST", "PATCH", "PUT", "DELETE"].includes(route.method));
    // Slack's events route takes Slack's form-encoded interactions too, and refuses anything unsigned before reading it
    // (decision 077; slack-channel.routes.test.ts).
    const formRoutes = ["/api/upload", "/api/import_vector_db", "/api/channels/:id/slack-events"];
    let requests = 0;
    for (const route of routes.filter((candidate) => !formRoutes.includes(candidate.url))) {
      const url = route.url.replace(/:\w+/g, "1");
      for (const body of bodies) {
        const before = await totalChanges();
        const response = await t.app.inject({ method: route.method as "POST", url, headers: { cookie, ...body.headers }, payload: body.payload });
        requests += 1;
        // A webhook's body is never parsed: it reaches the run as text, and a secret that is no schedule's is a 404
        // whatever the body (decision 105).
        const expected = route.url === "/api/hooks/:secret" ? 404 : 415;
        expect(`${route.method} ${url} ${body.label}: ${response.statusCode}`).toBe(`${route.method} ${url} ${body.label}: ${expected}`);
        if (expected === 415) expect(response.json()).toMatchObject(NOT_JSON);
        expect(await totalChanges()).toBe(before);
      }
    }
    expect(requests).toBeGreaterThan(100);
    console.log(`non-JSON bodies: ${requests / bodies.length} JSON routes x ${bodies.length} body types = ${requests} requests refused with 415`);
    expect((await t.app.inject({ method: "GET", url: "/api/conversations", headers: { cookie } })).json()).toEqual([]);
  });

  it("leaves JSON, bodiless POSTs and the upload routes' forms working", async () => {
    t = await createTestApp();
    const cookie = await t.login();
    const created = await t.app.inject({ method: "POST", url: "/api/conversations", headers: { cookie }, payload: { name: "Board" } });
    expect(created.statusCode).toBe(201);
    expect((await t.app.inject({ method: "POST", url: "/api/reset_vector_db", headers: { cookie } })).statusCode).toBe(200);
    const upload = await knowledgeClient(t, cookie).upload({}, { filename: "notes.txt", content: Buffer.from("Board notes.") });
    expect(upload.statusCode).toBe(200);
    // An upload route refuses other bodies in its own words.
    const text = await t.app.inject({ method: "POST", url: "/api/upload", headers: { cookie, "content-type": "text/plain" }, payload: "notes" });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ code: "unsupported_media_type", error: "This request takes a file sent as multipart/form-data" });
    expect((await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } })).statusCode).toBe(200);
  });
});
