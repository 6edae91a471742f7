import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { MEMORY_ERRORS } from "@sage/contracts/memories";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  gemini.reset();
  t = await createTestApp({
    env: { GEMINI_API_KEY: "memory-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_ALLOWED_MODELS: "gemini-2.5-flash" },
  });
  cookie = await t.login();
});
afterEach(() => t.close());

const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const newConversation = async (name: string) => (await api("POST", "/api/conversations", { name })).json().id as number;
const events = (body: string): [string, any][] =>
  body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => [/^event: (.*)$/m.exec(block)![1]!, JSON.parse(/^data: (.*)$/m.exec(block)![1]!)]);
const turn = async (conversationId: number, content: string) => events((await api("POST", `/api/conversations/${conversationId}/turn`, { content })).body);
/** What the fake model was last asked: the system instruction and the offered tool names. */
function lastModelCall() {
  const body = gemini.requests.filter((request) => request.action === "streamGenerateContent").at(-1)!.body;
  return {
    system: body.systemInstruction.parts[0].text as string,
    tools: body.tools[0].functionDeclarations.map((declaration: any) => declaration.name) as string[],
  };
}

describe("memory in assistant turns", () => {
  it("a memory saved in one conversation reaches the system instruction of a turn in another, until it is deleted", async () => {
    const first = await newConversation("Staff");
    gemini.script(
      { functionCalls: [{ name: "saveMemory", args: { content: "Anna Berg is the user's chief of staff" } }] },
      { text: "Noted: Anna Berg is your chief of staff." },
    );
    const received = await turn(first, "Anna Berg is my chief of staff.");
    expect(lastModelCall().tools).toContain("saveMemory");
    const saved = received.find(([event]) => event === "memory-saved")![1].memory;
    expect(saved).toMatchObject({ content: "Anna Berg is the user's chief of staff", source: "assistant", conversationId: first });
    expect((await api("GET", "/api/memories")).json()).toEqual([saved]);

    const second = await newConversation("Board");
    gemini.script({ text: "Ask Anna." });
    await turn(second, "Who should prepare the board pack?");
    expect(lastModelCall().system).toContain("- Anna Berg is the user's chief of staff");

    await api("DELETE", `/api/memories/${saved.id}`);
    gemini.script({ text: "I don't know." });
    await turn(second, "Who is my chief of staff?");
    expect(lastModelCall().system).not.toContain("Anna Berg");
  });

  it("with 'Let SAGE remember' off there is no saveMemory tool and no memory in the instruction, and a stray call saves nothing", async () => {
    await api("POST", "/api/memories", { content: "I prefer emails under 100 words" });
    const conversationId = await newConversation("Off");
    gemini.script({ text: "On." });
    await turn(conversationId, "Draft an email");
    expect(lastModelCall().system).toContain("I prefer emails under 100 words");

    await api("PUT", "/api/memory-settings", { enabled: false });
    gemini.script({ functionCalls: [{ name: "saveMemory", args: { content: "The user likes tea" } }] }, { text: "Done." });
    const received = await turn(conversationId, "I like tea. Draft an email");
    const call = gemini.requests.filter((request) => request.action === "streamGenerateContent").at(-2)!.body;
    expect(call.systemInstruction.parts[0].text).not.toContain("emails under 100 words");
    expect(call.systemInstruction.parts[0].text).not.toContain("saveMemory");
    expect(call.tools[0].functionDeclarations.map((declaration: any) => declaration.name)).not.toContain("saveMemory");
    expect(received.find(([event]) => event === "tool-result")![1].result).toEqual({ success: false, error: "Unknown function: saveMemory" });
    expect(received.some(([event]) => event === "memory-saved")).toBe(false);
    expect((await api("GET", "/api/memories")).json()).toHaveLength(1);
  });

  it("refuses to save a secret the model tries to remember", async () => {
    const conversationId = await newConversation("Secret");
    gemini.script({ functionCalls: [{ name: "saveMemory", args: { content: "The user's VPN password is Tr0ub4dor" } }] }, { text: "I won't keep that." });
    const received = await turn(conversationId, "My VPN password is Tr0ub4dor");
    expect(received.find(([event]) => event === "tool-result")![1].result).toEqual({ success: false, error: MEMORY_ERRORS.secret });
    expect((await api("GET", "/api/memories")).json()).toEqual([]);
  });

  it("saves a fact the model repeats only once, and refuses a door code or a German password through the tool", async () => {
    const conversationId = await newConversation("Twice");
    gemini.script(
      { functionCalls: [{ name: "saveMemory", args: { content: "The user flies with Swiss" } }] },
      { functionCalls: [{ name: "saveMemory", args: { content: "the user flies with Swiss." } }] },
      { functionCalls: [{ name: "saveMemory", args: { content: "Office door code 4711" } }] },
      { functionCalls: [{ name: "saveMemory", args: { content: "Sein Passwort ist hunter2" } }] },
      { text: "Noted." },
    );
    const received = await turn(conversationId, "I fly with Swiss.");
    const results = received.filter(([event]) => event === "tool-result").map(([, data]) => data.result);
    expect(results[1]).toMatchObject({ success: true, alreadyRemembered: true });
    expect(results.slice(2)).toEqual([
      { success: false, error: MEMORY_ERRORS.secret },
      { success: false, error: MEMORY_ERRORS.secret },
    ]);
    expect(received.filter(([event]) => event === "memory-saved")).toHaveLength(1);
    expect(((await api("GET", "/api/memories")).json() as any[]).map((memory) => memory.content)).toEqual(["The user flies with Swiss"]);
  });

  it("never gives the model a stored memory flagged as a secret", async () => {
    const now = new Date().toISOString();
    await t.store.db
      .insertInto("memories")
      .values({ userId: 3, content: "Bank login phrase: hunter2", source: "assistant", conversationId: null, createdAt: now, updatedAt: now, flaggedSecret: 1 })
      .execute();
    await api("POST", "/api/memories", { content: "I prefer emails under 100 words" });
    const conversationId = await newConversation("Flagged");
    gemini.script({ text: "Hello." });
    await turn(conversationId, "Draft an email to my bank");
    expect(lastModelCall().system).toContain("I prefer emails under 100 words");
    expect(lastModelCall().system).not.toContain("hunter2");
  });

  it("over the 2,000-character budget, carries the memories relevant to the message", async () => {
    for (let index = 0; index < 30; index++)
      await api("POST", "/api/memories", { content: `Routine fact ${index}: the user files expense reports every Friday afternoon` });
    await api("POST", "/api/memories", { content: "The next board meeting is in Oslo" });
    for (let index = 30; index < 40; index++)
      await api("POST", "/api/memories", { content: `Routine fact ${index}: the user files expense reports every Friday afternoon` });
    const conversationId = await newConversation("Budget");
    gemini.script({ text: "Oslo." });
    await turn(conversationId, "Where is the board meeting?");
    const { system } = lastModelCall();
    expect(system).toContain("- The next board meeting is in Oslo");
    const carried = system.split("\n").filter((line) => line.startsWith("- "));
    expect(carried.length).toBeLessThan(41);
    expect(carried.join("\n").length).toBeLessThanOrEqual(2000);
  });

  it("over the budget with an embedder, a memory is found by meaning too (the same hybrid as search)", async () => {
    await t.close();
    const embedder = createFakeEmbedder({ related: [["calendar", "diary"]] });
    t = await createTestApp({
      env: { GEMINI_API_KEY: "memory-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_ALLOWED_MODELS: "gemini-2.5-flash" },
      providers: (config) => ({ ...createProviders(config), embedder }),
    });
    cookie = await t.login();
    await api("POST", "/api/memories", { content: "Dana keeps the diary and decides each week what gets time" });
    for (let index = 0; index < 40; index++)
      await api("POST", "/api/memories", { content: `Routine fact ${index}: expense reports are filed every Friday afternoon` });
    const conversationId = await newConversation("Meaning");
    gemini.script({ text: "Dana." });
    await turn(conversationId, "Who handles my calendar?");
    expect(lastModelCall().system).toContain("- Dana keeps the diary and decides each week what gets time");
    // Each memory was embedded once, when it was saved; the turn embedded only its question.
    const documents = embedder.calls.filter((call) => call.kind === "document").flatMap((call) => call.texts);
    expect(documents).toHaveLength(41);
  });
});
