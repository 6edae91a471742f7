import sharp from "sharp";
import { CHAT_TEXTS } from "@sage/contracts/chat-turn";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startTelegramServer, type TelegramTestServer } from "@sage/testkit/telegram-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePdf } from "../../documents/test/test-documents.ts";
import { renderTextImage } from "../../documents/test/test-images.ts";
import { createFakeLlm } from "../../providers/llm/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

describe("a photo and a PDF sent in Telegram", () => {
  let gemini: FakeGemini;
  let telegram: TelegramTestServer;
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    [gemini, telegram] = await Promise.all([startFakeGemini(), startTelegramServer()]);
    t = await createTestApp({
      env: { GEMINI_API_KEY: "files-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_TELEGRAM_API_ROOT: telegram.apiRoot },
    });
    cookie = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([telegram?.stop(), gemini?.close()]);
  });
  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it("gives the model the photo as a picture and the PDF's text, both kept in the channel's conversation", async () => {
    const { pairingCode } = (await api("POST", "/api/channels", { kind: "telegram", token: telegram.token })).json();
    const anna = telegram.user({ userId: 501, firstName: "Anna" });
    await anna.say(pairingCode);
    await telegram.waitForBotMessage((message) => message.text.includes("connected to SAGE"));
    const [{ conversationId }] = (await api("GET", "/api/channels")).json().channels;

    const photo = await sharp(renderTextImage(["Whiteboard: launch on 14 March"]))
      .jpeg()
      .toBuffer();
    gemini.script({ text: "The whiteboard says the launch is on 14 March." });
    await anna.photo(photo, "What does the whiteboard say?");
    await telegram.waitForBotMessage((message) => message.text.startsWith("The whiteboard says"));
    const photoTurn = gemini.requests.at(-1)!.body.contents.at(-1).parts as { text?: string; inlineData?: { mimeType: string; data: string } }[];
    expect(photoTurn.find((part) => part.inlineData)).toEqual({ inlineData: { mimeType: "image/jpeg", data: photo.toString("base64") } });
    expect(photoTurn[0]!.text).toMatch(/^What does the whiteboard say\?/);

    const pdf = await makePdf([["Quarterly report. Revenue reached 12 million euros in the third quarter."]]);
    gemini.script({ text: "Revenue was 12 million euros." });
    await anna.document("q3-report.pdf", "application/pdf", pdf, "Summarise this");
    await telegram.waitForBotMessage((message) => message.text.startsWith("Revenue was 12 million euros."));
    expect(gemini.requests.at(-1)!.body.contents.at(-1).parts[0].text).toMatch(
      /^Summarise this\n\n\[Attached file: q3-report\.pdf\]\n[\s\S]*Revenue reached 12 million euros in the third quarter/,
    );

    // Both are files of the conversation, attached to their messages, as an upload in the web app would be.
    const messages = (await api("GET", `/api/conversations/${conversationId}/messages`)).json();
    const attached = messages
      .filter((message: { role: string }) => message.role === "user")
      .map((message: { attachments?: { name: string }[] }) => message.attachments?.map((item) => item.name));
    expect(attached).toEqual([[expect.stringMatching(/^photo-\d+\.jpg$/)], ["q3-report.pdf"]]);
  });
});

describe("a photo sent in Telegram to a model that cannot see pictures", () => {
  it("gives the model the text read from the photo, and says so in the chat", async () => {
    const blind = createFakeLlm({ vision: false });
    const telegram = await startTelegramServer({ token: "987654321:AAHblindModelTelegramToken000000000000" });
    const t = await createTestApp({
      env: { SAGE_EMBEDDER: "none", SAGE_TELEGRAM_API_ROOT: telegram.apiRoot },
      providers: (config) => ({ ...createProviders(config), llm: blind }),
    });
    try {
      const cookie = await t.login();
      const created = await t.app.inject({ method: "POST", url: "/api/channels", headers: { cookie }, payload: { kind: "telegram", token: telegram.token } });
      const anna = telegram.user({ userId: 501, firstName: "Anna" });
      await anna.say(created.json().pairingCode);
      await telegram.waitForBotMessage((message) => message.text.includes("connected to SAGE"));

      const photo = await sharp(renderTextImage(["Whiteboard: launch on 14 March"]))
        .jpeg({ quality: 95 })
        .toBuffer();
      blind.script({ text: "Launch on 14 March." });
      await anna.photo(photo, "What does the whiteboard say?");
      await telegram.waitForBotMessage((message) => message.text.startsWith("Launch on 14 March."));
      // The chat is told first, then answered; an answer that cites nothing lists no sources (decision 063).
      expect(
        telegram
          .botMessages(501)
          .map((message) => message.text)
          .slice(-2),
      ).toEqual([CHAT_TEXTS.imagesAsText, "Launch on 14 March."]);
      const prompt = JSON.stringify(blind.prompts.at(-1));
      expect(prompt).toMatch(/\[Attached file: photo-\d+\.jpg\]/);
      expect(prompt).toMatch(/launch on 14 March/i);
      expect(prompt).not.toContain('"type":"file"');
    } finally {
      await t.close();
      await telegram.stop();
    }
  });
});
