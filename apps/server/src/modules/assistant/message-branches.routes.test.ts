import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import type { Message } from "@sage/contracts/conversations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

/** Issue 32, decision 045: edit and regenerate keep what they replace as branches; the model reads the shown path. */
let gemini: FakeGemini;
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  gemini = await startFakeGemini();
  t = await createTestApp({ env: { GEMINI_API_KEY: "branch-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" } });
  cookie = await t.login();
});
afterAll(async () => {
  await t.close();
  await gemini.close();
});

const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const newConversation = async (name: string) => (await api("POST", "/api/conversations", { name })).json().id as number;
const shown = async (id: number) => (await api("GET", `/api/conversations/${id}/messages`)).json() as Message[];
const texts = (messages: readonly Message[]) => messages.map((message) => message.content);
/** The texts of what the fake model was last given, oldest first. */
const modelSaw = () =>
  (gemini.requests.filter((request) => request.action === "streamGenerateContent").at(-1)!.body.contents as any[]).map((content) =>
    (content.parts as any[]).map((part) => part.text ?? "").join(""),
  );

async function streamed(url: string, payload: object) {
  const response = await api("POST", url, payload);
  expect(response.statusCode, response.body).toBe(200);
  return turnEvents(response.body);
}

describe("branches", () => {
  it("keeps a regenerated answer and an edited message as branches, and the model reads only the shown path", async () => {
    const id = await newConversation("Capitals");
    gemini.script({ text: "Paris." });
    await streamed(`/api/conversations/${id}/turn`, { content: "What is the capital of France?" });
    const [question, first] = await shown(id);

    gemini.script({ text: "Paris, of course." });
    const regenerated = await streamed(`/api/conversations/${id}/messages/${first!.id}/regenerate`, {});
    expect(regenerated[0]).toEqual(["user-message", { message: question }]);
    expect(modelSaw()).toEqual(["What is the capital of France?"]);
    let messages = await shown(id);
    expect(texts(messages)).toEqual(["What is the capital of France?", "Paris, of course."]);
    expect(messages[1]!.siblings).toEqual([first!.id, messages[1]!.id]);

    gemini.script({ text: "Rome." });
    await streamed(`/api/conversations/${id}/messages/${question!.id}/edit`, { content: "What is the capital of Italy?" });
    expect(modelSaw()).toEqual(["What is the capital of Italy?"]);
    messages = await shown(id);
    expect(texts(messages)).toEqual(["What is the capital of Italy?", "Rome."]);
    expect(messages[0]!.siblings).toEqual([question!.id, messages[0]!.id]);
    expect(messages[1]!.siblings).toBeUndefined();
    const list = (await api("GET", "/api/conversations")).json() as Array<{ id: number; lastMessage?: string }>;
    expect(list.find((item) => item.id === id)?.lastMessage).toBe("Rome.");

    // Back to the first question: the answer shown there last comes back with it, and the model reads that path next.
    const activated = await api("POST", `/api/conversations/${id}/messages/${question!.id}/activate`);
    expect(activated.statusCode, activated.body).toBe(200);
    expect(texts(activated.json())).toEqual(["What is the capital of France?", "Paris, of course."]);
    expect(texts(await shown(id))).toEqual(["What is the capital of France?", "Paris, of course."]);
    gemini.script({ text: "About two million people." });
    await streamed(`/api/conversations/${id}/turn`, { content: "And its population?" });
    expect(modelSaw()).toEqual(["What is the capital of France?", "Paris, of course.", "And its population?"]);

    // The other answer is one step away, and the export holds the shown path only.
    await api("POST", `/api/conversations/${id}/messages/${first!.id}/activate`);
    expect(texts(await shown(id))).toEqual(["What is the capital of France?", "Paris."]);
    const exported = (await api("GET", `/api/conversations/${id}/export?format=md`)).body;
    expect(exported).toContain("Paris.");
    expect(exported).not.toContain("Rome.");
    expect(exported).not.toContain("Paris, of course.");
  });

  it("refuses what cannot be edited or regenerated, and changes nothing", async () => {
    const id = await newConversation("Refusals");
    const other = await newConversation("Other");
    gemini.script({ text: "Hello." });
    await streamed(`/api/conversations/${id}/turn`, { content: "Hi" });
    const [question, answer] = await shown(id);
    const before = (await api("GET", `/api/conversations/${id}/messages`)).body;

    const editAnswer = await api("POST", `/api/conversations/${id}/messages/${answer!.id}/edit`, { content: "Changed" });
    expect([editAnswer.statusCode, editAnswer.json().error]).toEqual([400, "Only your own messages can be edited"]);
    const regenerateQuestion = await api("POST", `/api/conversations/${id}/messages/${question!.id}/regenerate`, {});
    expect([regenerateQuestion.statusCode, regenerateQuestion.json().error]).toEqual([400, "Only SAGE's answers can be regenerated"]);
    const empty = await api("POST", `/api/conversations/${id}/messages/${question!.id}/edit`, { content: "  " });
    expect(empty.statusCode).toBe(400);
    const elsewhere = await api("POST", `/api/conversations/${other}/messages/${question!.id}/activate`);
    expect([elsewhere.statusCode, elsewhere.json().error]).toEqual([404, "Message not found"]);
    const badId = await api("POST", `/api/conversations/${id}/messages/abc/regenerate`, {});
    expect(badId.statusCode).toBe(400);
    expect((await api("GET", `/api/conversations/${id}/messages`)).body).toBe(before);
  });
});
