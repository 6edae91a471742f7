import { compatStreamProtocol } from "@sage/contracts/gemini-compat";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LLM_NOT_CONFIGURED_MESSAGE } from "../../../providers/llm/llm.ts";
import { createTestApp, type TestApp } from "../../../test/test-app.ts";
import { streamEvents } from "../../../test/turn-events.ts";

// The spec's stateless chat calls (decision 024), which SAGE's own chat no longer uses.
let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  gemini.reset();
  t = await createTestApp({ env: { GEMINI_API_KEY: "secret-key-123", GEMINI_BASE_URL: gemini.baseUrl, SAGE_ALLOWED_MODELS: "gemini-2.5-flash" } });
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
          properties: {
            title: { type: "STRING" },
            dueDate: { type: "STRING", description: "YYYY-MM-DD" },
            priority: { type: "STRING", enum: ["high", "medium", "low"] },
          },
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

const events = (body: string) => streamEvents(body, compatStreamProtocol);

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
    for (const payload of [
      { messages: [] },
      { messages: [{ role: "ai", content: "x" }] },
      { messages: history, tools: [{ functionDeclarations: [{ name: "bad name!" }] }] },
      { messages: [{ role: "user", content: "  " }], stream: true },
    ]) {
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
    const followUp = {
      messages: history,
      functionResponse: { name: "createReminder", args: { title: "Call Ann" }, response: { id: 7 } },
      systemInstruction: "Be brief.",
      tools,
    };
    for (const [url, payload] of [
      ["/api/gemini/chat", { messages: history, systemInstruction: "Be brief.", tools }],
      ["/api/gemini/function-response", followUp],
    ] as const) {
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
    const received = events(
      (await post("/api/gemini/function-response", { messages: history, functionResponse: { name: "searchDocuments", response: [] }, stream: true })).body,
    );
    expect(received.at(-1)).toEqual(["finish", { response: "All set." }]);
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
});
