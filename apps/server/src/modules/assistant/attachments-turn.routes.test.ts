import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { CHAT_TEXTS, attachmentNotFound } from "@sage/contracts/chat-turn";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderTextImage } from "../../documents/test/test-images.ts";
import { createFakeLlm } from "../../providers/llm/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents as events } from "../../test/turn-events.ts";

/** Issue 32: images and files in a message. Pictures are read by text recognition on upload: a system test. */
let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
let conversationId: number;
const picture = renderTextImage(["Whiteboard: launch on 14 March"]);

async function start(options: { blind?: ReturnType<typeof createFakeLlm> } = {}) {
  const env = { GEMINI_API_KEY: "attach-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" };
  t = await createTestApp({
    env,
    ...(options.blind ? { providers: (config) => ({ ...createProviders(config), llm: options.blind! }) } : {}),
  });
  cookie = await t.login();
  conversationId = await newConversation("Attachments");
}
const newConversation = async (name: string) =>
  (await t.app.inject({ method: "POST", url: "/api/conversations", payload: { name }, headers: { cookie } })).json().id as number;

async function upload(filename: string, content: Buffer, type: string, into = conversationId) {
  const response = await knowledgeClient(t, cookie).upload(
    { conversationId: into, parentId: 0, path: "", description: "Attached in the chat" },
    { filename, content, type },
  );
  expect(response.statusCode, response.body).toBeLessThan(300);
  await t.jobs.idle();
  return response.json().file.id as number;
}

const turn = (content: string, attachments: number[]) =>
  t.app.inject({ method: "POST", url: `/api/conversations/${conversationId}/turn`, payload: { content, attachments }, headers: { cookie } });
const saved = async () => (await t.app.inject({ method: "GET", url: `/api/conversations/${conversationId}/messages`, headers: { cookie } })).json() as any[];
const lastUserParts = () => {
  const request = gemini.requests.filter((each) => each.action === "streamGenerateContent").at(-1)!;
  return (request.body.contents as any[]).filter((content) => content.role === "user").at(-1).parts as any[];
};

beforeEach(() => gemini.reset());
afterEach(async () => t?.close());

describe("a message with attachments", () => {
  it("gives Gemini an attached picture as an inline image, and keeps the attachment with the message", async () => {
    await start();
    const fileId = await upload("whiteboard.png", picture, "image/png");
    gemini.script({ text: "The whiteboard says the launch is on 14 March." });
    const response = await turn("What does the whiteboard say?", [fileId]);
    expect(response.statusCode, response.body).toBe(200);
    const parts = lastUserParts();
    expect(parts.find((part) => part.inlineData)).toEqual({ inlineData: { mimeType: "image/png", data: picture.toString("base64") } });
    expect(parts.map((part) => part.text ?? "").join("")).toContain("[Attached picture: whiteboard.png]");
    const [event, user] = events(response.body)[0]!;
    expect(event).toBe("user-message");
    expect(user.message.attachments).toEqual([{ fileId, name: "whiteboard.png", mimeType: "image/png" }]);
    // After a reload: the saved message still names its picture.
    expect((await saved())[0]).toMatchObject({ role: "user", content: "What does the whiteboard say?", attachments: [{ fileId, name: "whiteboard.png" }] });
  });

  it("gives a model that cannot see pictures the text read from them, and tells the user", async () => {
    const blind = createFakeLlm({ vision: false });
    await start({ blind });
    const fileId = await upload("whiteboard.png", picture, "image/png");
    blind.script({ text: "Launch on 14 March." });
    const received = events((await turn("What does the whiteboard say?", [fileId])).body);
    expect(received.find(([event]) => event === "notice")?.[1]).toEqual({ text: CHAT_TEXTS.imagesAsText });
    const prompt = JSON.stringify(blind.prompts.at(-1));
    expect(prompt).toContain("[Attached file: whiteboard.png]");
    expect(prompt).toMatch(/launch on 14 March/i);
    expect(prompt).not.toContain('"type":"file"');
  });

  it("gives any other file as its text, and refuses a file that is not the conversation's", async () => {
    await start();
    const notes = await upload("notes.txt", Buffer.from("The board moved the offsite to Lisbon."), "text/plain");
    gemini.script({ text: "Lisbon." });
    expect((await turn("Where is the offsite?", [notes])).statusCode).toBe(200);
    expect(
      lastUserParts()
        .map((part) => part.text ?? "")
        .join(""),
    ).toContain("[Attached file: notes.txt]\nThe board moved the offsite to Lisbon.");

    const elsewhere = await upload("other.txt", Buffer.from("Another conversation's file."), "text/plain", await newConversation("Other"));
    const before = await saved();
    const refused = await turn("And this one?", [elsewhere]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(attachmentNotFound(elsewhere));
    expect(await saved()).toEqual(before);
    expect((await turn("Too many", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).statusCode).toBe(400);
  });
});
