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

const tools = [
  {
    functionDeclarations: [
      {
        name: "createReminder",
        description: "Create a reminder",
        parameters: {
          type: "OBJECT",
          properties: { title: { type: "STRING" }, dueDate: { type: "STRING", description: "YYYY-MM-DD" }, priority: { type: "STRING", enum: ["high", "medium", "low"] } },
          required: ["title", "dueDate", "priority"],
        },
      },
      { name: "searchDocuments", parameters: { type: "OBJECT", properties: { query: { type: "STRING" } }, required: ["query"] } },
    ],
  },
];
const history = [
  { role: "user", content: "Hi" },
  { role: "model", content: "Hello, how can I help?" },
  { role: "user", content: "Remind me to call Ann tomorrow" },
];

/** Parses a server-sent event body into [event, data] pairs. */
function events(body: string): [string, any][] {
  return body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)![1]!;
      return [event, JSON.parse(/^data: (.*)$/m.exec(block)![1]!)];
    });
}

describe("POST /api/gemini/chat", () => {
  it("answers the model's text and sends it the history, system instruction and tools", async () => {
    gemini.script({ text: "Sure, for when?" });
    const response = await post("/api/gemini/chat", { messages: history, model: "gemini-2.0-flash", systemInstruction: "You are SAGE.", tools });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ response: "Sure, for when?", functionCalls: [] });
    const sent = gemini.requests.at(-1)!;
    expect(sent.model).toBe("gemini-2.0-flash");
    expect(sent.apiKey).toBe("secret-key-123");
    expect(sent.body.systemInstruction.parts[0].text).toBe("You are SAGE.");
    expect(sent.body.contents.map((c: any) => [c.role, c.parts[0].text])).toEqual([
      ["user", "Hi"],
      ["model", "Hello, how can I help?"],
      ["user", "Remind me to call Ann tomorrow"],
    ]);
    const declared = sent.body.tools[0].functionDeclarations;
    expect(declared.map((d: any) => d.name)).toEqual(["createReminder", "searchDocuments"]);
    expect(declared[0].parameters.required).toEqual(["title", "dueDate", "priority"]);
  });

  it("returns the model's function calls with their arguments", async () => {
    gemini.script({ text: "Creating it.", functionCalls: [{ name: "createReminder", args: { title: "Call Ann", dueDate: "2030-01-02", priority: "high" } }] });
    const response = await post("/api/gemini/chat", { messages: history, tools });
    expect(response.json()).toEqual({
      response: "Creating it.",
      functionCalls: [{ name: "createReminder", args: { title: "Call Ann", dueDate: "2030-01-02", priority: "high" } }],
    });
  });

  it("streams text-delta events and ends with finish carrying the full reply", async () => {
    gemini.script({ chunks: ["The answer ", "is ", "forty-two."] });
    const response = await post("/api/gemini/chat", { messages: history, stream: true });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    const received = events(response.body);
    const deltas = received.filter(([event]) => event === "text-delta").map(([, data]) => data.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("The answer is forty-two.");
    expect(received.at(-1)).toEqual(["finish", { response: "The answer is forty-two.", functionCalls: [] }]);
    expect(gemini.requests.at(-1)!.action).toBe("streamGenerateContent");
  });

  it("streams function calls in the finish event", async () => {
    gemini.script({ functionCalls: [{ name: "searchDocuments", args: { query: "budget" } }] });
    const received = events((await post("/api/gemini/chat", { messages: history, tools, stream: true })).body);
    expect(received.at(-1)).toEqual(["finish", { response: "", functionCalls: [{ name: "searchDocuments", args: { query: "budget" } }] }]);
  });

  it("refuses a model the server does not allow, before calling anything", async () => {
    const response = await post("/api/gemini/chat", { messages: history, model: "gpt-4o", stream: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Model "gpt-4o" is not allowed. Allowed models: gemini-2.0-flash, gemini-2.5-flash');
    expect(gemini.requests).toHaveLength(0);
    gemini.script({ text: "ok" });
    expect((await post("/api/gemini/chat", { messages: history, model: "gemini-2.5-flash" })).json().response).toBe("ok");
    expect(gemini.requests.at(-1)!.model).toBe("gemini-2.5-flash");
  });

  it("turns a model failure into a 502, as JSON and as a stream error event", async () => {
    gemini.script({ error: { status: 500, message: "backend exploded" } });
    const json = await post("/api/gemini/chat", { messages: history });
    expect(json.statusCode).toBe(502);
    expect(json.json().error).toMatch(/^The model request failed \(500\)/);
    gemini.script({ error: { status: 429, message: "quota" } });
    const received = events((await post("/api/gemini/chat", { messages: history, stream: true })).body);
    expect(received).toHaveLength(1);
    expect(received[0]![0]).toBe("error");
    expect(received[0]![1]).toMatchObject({ status: 502, statusText: "Bad Gateway" });
  });

  it("rejects malformed bodies with a 400", async () => {
    for (const payload of [{ messages: [] }, { messages: [{ role: "ai", content: "x" }] }, { messages: history, tools: [{ functionDeclarations: [{ name: "bad name!" }] }] }, { messages: [{ role: "user", content: "  " }], stream: true }]) {
      expect((await post("/api/gemini/chat", payload)).statusCode).toBe(400);
    }
    expect(gemini.requests).toHaveLength(0);
  });
});

describe("POST /api/gemini/function-response", () => {
  it("sends the call and its result to the model and answers the follow-up", async () => {
    gemini.script({ text: "Done: your reminder is set." });
    const response = await post("/api/gemini/function-response", {
      messages: history,
      functionResponse: { name: "createReminder", args: { title: "Call Ann" }, response: { success: true, id: 7 } },
      tools,
    });
    expect(response.json()).toEqual({ response: "Done: your reminder is set." });
    const contents = gemini.requests.at(-1)!.body.contents;
    expect(contents.at(-2).parts[0].functionCall).toMatchObject({ name: "createReminder", args: { title: "Call Ann" } });
    expect(contents.at(-1).parts[0].functionResponse.name).toBe("createReminder");
    expect(JSON.stringify(contents.at(-1).parts[0].functionResponse.response)).toContain('"id":7');
  });

  it("sends Gemini the same request streamed as unstreamed (history, system instruction, tools, function result)", async () => {
    const followUp = { messages: history, functionResponse: { name: "createReminder", args: { title: "Call Ann" }, response: { id: 7 } }, systemInstruction: "Be brief.", tools };
    for (const [url, payload] of [["/api/gemini/chat", { messages: history, systemInstruction: "Be brief.", tools }], ["/api/gemini/function-response", followUp]] as const) {
      gemini.script({ text: "ok" }, { text: "ok" });
      await post(url, payload);
      await post(url, { ...payload, stream: true });
      const [unstreamed, streamed] = gemini.requests.slice(-2);
      expect([unstreamed!.action, streamed!.action]).toEqual(["generateContent", "streamGenerateContent"]);
      expect(streamed!.body).toEqual(unstreamed!.body);
    }
  });

  it("streams the follow-up too", async () => {
    gemini.script({ chunks: ["All ", "set."] });
    const received = events((await post("/api/gemini/function-response", { messages: history, functionResponse: { name: "searchDocuments", response: [] }, stream: true })).body);
    expect(received.at(-1)).toEqual(["finish", { response: "All set." }]);
  });
});

describe("POST /api/gemini/web-search", () => {
  it("grounds with Google Search and answers the sources as text and as a list", async () => {
    gemini.script({ text: "SAGE found it.", sources: [{ title: "Example News", uri: "https://news.example/a" }, { title: "Docs", uri: "https://docs.example/b" }] });
    const response = await post("/api/gemini/web-search", { query: "latest news" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      response: "SAGE found it.",
      groundingData: "1. Example News\n   https://news.example/a\n2. Docs\n   https://docs.example/b",
      sources: [{ title: "Example News", url: "https://news.example/a" }, { title: "Docs", url: "https://docs.example/b" }],
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
    expect(response.json()).toEqual({ response: "Summary [1]", groundingData: "1. Result One\n   https://one.example/", sources: [{ title: "Result One", url: "https://one.example/" }] });
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

  it("chat answers how to configure one, as JSON and streamed", async () => {
    expect((await post("/api/gemini/chat", { messages: history })).json()).toEqual({ response: LLM_NOT_CONFIGURED_MESSAGE, functionCalls: [] });
    const received = events((await post("/api/gemini/chat", { messages: history, stream: true })).body);
    expect(received[0]).toEqual(["text-delta", { delta: LLM_NOT_CONFIGURED_MESSAGE }]);
    expect(LLM_NOT_CONFIGURED_MESSAGE).toContain("GEMINI_API_KEY");
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
