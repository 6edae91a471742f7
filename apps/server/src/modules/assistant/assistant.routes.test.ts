import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LLM_NOT_CONFIGURED_MESSAGE } from "../../providers/llm/llm.ts";
import { createProviders } from "../../providers/registry.ts";
import { createFakeWebSearch } from "../../providers/web-search/fake.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { WEB_SEARCH_NOT_CONFIGURED_MESSAGE } from "./assistant.service.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
const geminiEnv = () => ({ GEMINI_API_KEY: "secret-key-123", GEMINI_BASE_URL: gemini.baseUrl, SAGE_ALLOWED_MODELS: "gemini-2.5-flash" });
beforeEach(async () => {
  gemini.reset();
  t = await createTestApp({ env: geminiEnv() });
  cookie = await t.login();
});
afterEach(async () => t.close());

const post = (url: string, payload: unknown) => t.app.inject({ method: "POST", url, payload: payload as any, headers: { cookie } });

describe("POST /api/gemini/web-search", () => {
  it("grounds with Google Search and answers the sources as text and as a list", async () => {
    gemini.script({
      text: "SAGE found it.",
      sources: [
        { title: "Example News", uri: "https://news.example/a" },
        { title: "Docs", uri: "https://docs.example/b" },
      ],
    });
    const response = await post("/api/gemini/web-search", { query: "latest news" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      response: "SAGE found it.",
      groundingData: "1. Example News\n   https://news.example/a\n2. Docs\n   https://docs.example/b",
      sources: [
        { title: "Example News", url: "https://news.example/a" },
        { title: "Docs", url: "https://docs.example/b" },
      ],
    });
    expect(gemini.requests.at(-1)!.body.tools.some((tool: any) => tool.googleSearch)).toBe(true);
  });

  it("answers a blank query with 'No search query provided.' and calls nothing", async () => {
    const response = await post("/api/gemini/web-search", { query: "   " });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "No search query provided.", message: "No search query provided." });
    expect(gemini.requests).toHaveLength(0);
  });

  it("reports a model failure with a message", async () => {
    gemini.script({ error: { status: 503, message: "overloaded" } });
    const response = await post("/api/gemini/web-search", { query: "x" });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/^The model request failed \(503\)/);
  });
});

describe("web search through a backend", () => {
  it("summarises backend results with the model and lists them as sources", async () => {
    await t.close();
    const backend = createFakeWebSearch([{ title: "Result One", url: "https://one.example/", snippet: "first" }]);
    t = await createTestApp({ env: geminiEnv(), providers: (config) => ({ ...createProviders(config), webSearch: { kind: "backend", backend } }) });
    cookie = await t.login();
    gemini.script({ text: "Summary [1]" });
    const response = await post("/api/gemini/web-search", { query: "one" });
    expect(response.json()).toEqual({
      response: "Summary [1]",
      groundingData: "1. Result One\n   https://one.example/",
      sources: [{ title: "Result One", url: "https://one.example/" }],
    });
    expect(backend.queries).toEqual(["one"]);
    expect(JSON.stringify(gemini.requests.at(-1)!.body.contents)).toContain("https://one.example/");
    backend.failWith = new Error("SearXNG answered 500 Internal Server Error");
    const failed = await post("/api/gemini/web-search", { query: "one" });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe("Web search failed: SearXNG answered 500 Internal Server Error");
  });
});

describe("without a configured provider", () => {
  beforeEach(async () => {
    await t.close();
    t = await createTestApp();
    cookie = await t.login();
  });

  it("web search says it is not configured, and the test connection fails clearly", async () => {
    const response = await post("/api/gemini/web-search", { query: "x" });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(WEB_SEARCH_NOT_CONFIGURED_MESSAGE);
    expect((await post("/api/assistant/test-connection", {})).json()).toEqual({ ok: false, message: LLM_NOT_CONFIGURED_MESSAGE });
    const settings = await t.app.inject({ method: "GET", url: "/api/assistant/settings", headers: { cookie } });
    expect(settings.json()).toMatchObject({ provider: "none", modelId: null, keySet: false });
  });
});

describe("model settings", () => {
  it("shows the provider, model and that a key is set, never the key", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/assistant/settings", headers: { cookie } });
    expect(response.json()).toEqual({
      provider: "gemini",
      modelId: "gemini-2.0-flash",
      allowedModels: ["gemini-2.0-flash", "gemini-2.5-flash"],
      keySet: true,
      baseUrl: `${gemini.baseUrl}`,
      webSearch: "gemini",
    });
    expect(response.body).not.toContain("secret-key-123");
  });

  it("tests the connection with one model call", async () => {
    gemini.script({ text: "OK" });
    expect((await post("/api/assistant/test-connection", {})).json()).toEqual({ ok: true, message: "Connected: gemini answered with model gemini-2.0-flash." });
    gemini.script({ error: { status: 401, message: "API key not valid" } });
    const failed = (await post("/api/assistant/test-connection", {})).json();
    expect(failed.ok).toBe(false);
    expect(failed.message).toMatch(/^Connection failed: The model request failed \(401\)/);
  });
});
