import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { startTelegramServer, type TelegramTestServer } from "@sage/testkit/telegram-server";
import { signIn } from "../support/auth.ts";
import { e2eDataDir } from "../support/data-dir.mjs";
import { fakeGemini } from "../support/fake-gemini.ts";
import { E2E_PORT, TELEGRAM_PORT } from "../support/ports.ts";

// This worker's SAGE reaches Telegram at TELEGRAM_PORT (playwright.config.ts); the emulator is started there for the test.
let telegram: TelegramTestServer;
test.beforeEach(async () => {
  await fakeGemini.reset();
  // A bot of its own (the id is the token's first part): a bot serves one SAGE user.
  telegram = await startTelegramServer({ port: TELEGRAM_PORT, token: `${Date.now() % 1_000_000_000}:AAHbrowserTestTokenForSageChannels0000` });
});
test.afterEach(async () => {
  await telegram.stop();
});

const notesDir = path.join(e2eDataDir(E2E_PORT), "notes");

test("Settings > Channels: connect a Telegram bot, pair the chat, and talk and approve from it", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings?section=channels");
  const form = page.getByRole("form", { name: "Connect a channel" });
  await form.getByRole("radio", { name: "Telegram" }).check();
  await form.getByLabel("Bot token").fill(telegram.token);
  await form.getByRole("button", { name: "Connect" }).click();

  const row = page.getByRole("region", { name: "@SageTestBot · Telegram" });
  await expect(row.getByRole("status")).toHaveText("Waiting for the code");
  const code = (await row.getByLabel("Pairing code").textContent())!.trim();
  expect(code).toMatch(/^\S{4,}$/);

  // Anna sends the code from her own chat: the row shows her chat, and the chat is greeted.
  const anna = telegram.user({ userId: 501, firstName: "Anna", userName: "anna_exec" });
  await anna.say(code);
  await expect(row.getByRole("status")).toHaveText("Connected");
  await expect(row).toContainText("Chat with Anna");
  await expect(row.getByTestId("pairing-code")).toHaveCount(0);
  await telegram.waitForBotMessage((message) => message.text === CHANNEL_TEXTS.paired("Anna"));

  // A question in the chat is a turn of the "Telegram" conversation, answered in the chat.
  await fakeGemini.script({ text: "Your board meeting is on **Thursday** at 10:00." });
  await anna.say("When is the board meeting?");
  const answer = await telegram.waitForBotMessage((message) => message.text.startsWith("Your board meeting"));
  expect(answer.text).toBe("Your board meeting is on Thursday at 10:00.");
  expect(answer.html).toBe("Your board meeting is on <b>Thursday</b> at 10:00.");

  // A change asks first: the card in the chat carries what would be written, with Approve and Decline.
  const name = `from-telegram-${Date.now()}`;
  await fakeGemini.script({ functionCalls: [{ name: "notes__write_note", args: { name, text: "Board pack by Wednesday" } }] }, { text: "I saved the note." });
  await anna.say("Note that the board pack is due Wednesday");
  const card = await telegram.waitForBotMessage((message) => message.text.startsWith(CHANNEL_TEXTS.cardTitle) && message.buttons.length > 0);
  expect(card.text).toContain("Board pack by Wednesday");
  expect(card.buttons.map((button) => button.text)).toEqual([CHANNEL_TEXTS.approve, CHANNEL_TEXTS.decline]);
  expect(existsSync(path.join(notesDir, `${name}.txt`))).toBe(false);
  await anna.press(card, CHANNEL_TEXTS.approve);
  await telegram.waitForBotMessage((message) => message.text === "I saved the note.");
  expect(readFileSync(path.join(notesDir, `${name}.txt`), "utf8")).toBe("Board pack by Wednesday");
  // The card's buttons close, saying how it was answered.
  await telegram.waitFor(() =>
    telegram
      .botMessages()
      .find((message) => message.messageId === card.messageId && message.buttons.length === 0 && message.text.endsWith(CHANNEL_TEXTS.approved)),
  );

  // The web app shows the same turns in the channel's conversation.
  const [channel] = (await (await page.request.get("/api/channels")).json()).channels;
  await row.getByRole("link", { name: "Open the conversation" }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${channel.conversationId}$`));
  const messages = page.getByTestId("chat-message");
  await expect(messages.filter({ hasText: "When is the board meeting?" })).toHaveCount(1);
  await expect(messages.filter({ hasText: "Your board meeting is on Thursday at 10:00." })).toHaveCount(1);
  await expect(messages.filter({ hasText: "Note that the board pack is due Wednesday" })).toHaveCount(1);
  await expect(page.getByTestId("tool-run").getByText(/^Ran Notes: write note - /)).toBeVisible();
  await expect(messages.filter({ hasText: "I saved the note." })).toHaveCount(1);

  // Disconnected, so this worker's SAGE stops polling the emulator the next test replaces.
  expect((await page.request.delete(`/api/channels/${channel.id}`)).ok()).toBe(true);
});
