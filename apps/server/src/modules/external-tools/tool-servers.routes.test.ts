import { ELICITATION_TEXTS } from "@sage/contracts/elicitation";
import { EXTERNAL_TOOL_TEXTS } from "@sage/contracts/external-tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

/** The remote-server and question routes' refusals: no tool server is started here (decision 080). */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ env: { SAGE_EMBEDDER: "none" } });
  cookie = await t.login();
});
afterAll(() => t.close());

const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers });

describe("adding a remote tool server", () => {
  it("refuses a server on this computer or a private network, as web links are refused, and saves nothing", async () => {
    for (const url of ["http://127.0.0.1:9/mcp", "http://localhost/mcp", "http://10.1.2.3/mcp", "http://[::1]:8080/mcp", "http://169.254.169.254/latest"]) {
      const refused = await call("POST", "/api/tools/servers", { name: "local", url });
      expect([refused.statusCode, refused.json()]).toEqual([400, { error: EXTERNAL_TOOL_TEXTS.privateAddress, code: "private_address" }]);
    }
    expect((await call("GET", "/api/tools/servers")).json()).toEqual({ servers: [] });
  });

  it("takes a name a tool's model name can start with and an http(s) address, else says which field is wrong", async () => {
    for (const [body, field] of [
      [{ name: "9lives", url: "https://mcp.example.com/mcp" }, "name"],
      [{ name: "has space", url: "https://mcp.example.com/mcp" }, "name"],
      [{ name: "ok", url: "file:///etc/passwd" }, "url"],
      [{ name: "ok" }, "url"],
    ] as const) {
      const refused = await call("POST", "/api/tools/servers", body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toContain(`${field}:`);
    }
  });

  it("answers nothing it does not know, and nothing without a session", async () => {
    expect((await call("DELETE", "/api/tools/servers/0b6f0d6e-0000-4000-8000-000000000000")).json()).toEqual({
      error: EXTERNAL_TOOL_TEXTS.serverNotFound,
      code: "tool_server_not_found",
    });
    expect((await call("PATCH", "/api/tools/servers/config:nowhere", { trusted: true })).statusCode).toBe(404);
    expect((await call("PATCH", "/api/tools/servers/config:nowhere", { trusted: "yes" })).statusCode).toBe(400);
    expect((await call("POST", "/api/elicitations/nope", { action: "accept", content: {} })).json()).toEqual({
      error: ELICITATION_TEXTS.notFound,
      code: "elicitation_not_found",
    });
    expect((await call("POST", "/api/elicitations/nope", { action: "maybe" })).statusCode).toBe(400);
    expect((await call("POST", "/api/elicitations/nope", { action: "decline", content: { a: 1 } })).statusCode).toBe(400);
    expect((await call("GET", "/api/elicitations")).json()).toEqual({ elicitations: [] });
    expect((await call("GET", "/api/tools/resources")).json()).toEqual({ resources: [], templates: [] });
    expect((await call("GET", "/api/tools/prompts")).json()).toEqual({ prompts: [] });
    for (const [method, url] of [
      ["GET", "/api/tools/servers"],
      ["POST", "/api/tools/servers"],
      ["DELETE", "/api/tools/servers/x"],
      ["GET", "/api/tools/resources"],
      ["POST", "/api/tools/resources/read"],
      ["GET", "/api/tools/prompts"],
      ["POST", "/api/tools/prompts/get"],
      ["POST", "/api/elicitations/x"],
    ] as const) {
      expect((await call(method, url, {}, {})).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
