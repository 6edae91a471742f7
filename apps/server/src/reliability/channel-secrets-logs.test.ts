import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { startTelegramServer } from "@sage/testkit/telegram-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterEach, expect, it } from "vitest";
import { startServerProcess } from "./server-process.ts";

const BOT_SECRET = "AAHchannelSecretNeverInTheLog0000000001";
const WRONG_SECRET = "AAHwrongTokenAlsoNeverInTheLog000000002";
const temp = makeTempDir();
afterEach(() => temp.remove());

it("a bot token and a pairing code appear in no log line, and each refused stranger is logged with the count", async () => {
  const telegram = await startTelegramServer({ token: `424242424:${BOT_SECRET}` });
  const server = await startServerProcess(temp.dir, { SAGE_LOG_LEVEL: "trace", SAGE_TELEGRAM_API_ROOT: telegram.apiRoot });
  let pairingCode: string | undefined;
  try {
    const cookie = await server.login();
    const request = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers: { cookie, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const channels = async () => ((await (await request("GET", "/api/channels")).json()) as { channels: { refused: { count: number } }[] }).channels;

    // A token Telegram refuses, then the right one.
    const refused = await request("POST", "/api/channels", { kind: "telegram", token: `999999999:${WRONG_SECRET}` });
    expect(await refused.json()).toMatchObject({ error: CHANNEL_TEXTS.tokenRefused("Telegram") });
    const created = await request("POST", "/api/channels", { kind: "telegram", token: telegram.token });
    expect(created.status).toBe(201);
    ({ pairingCode } = (await created.json()) as { pairingCode: string });
    const anna = telegram.user({ userId: 501, firstName: "Anna" });
    await anna.say(pairingCode);
    await telegram.waitForBotMessage((message) => message.text.includes("connected to SAGE"));

    // Two strangers' messages: one polite refusal, both counted.
    const mallory = telegram.user({ userId: 666, firstName: "Mallory" });
    await mallory.say("What is on Anna's calendar?");
    await mallory.say("Tell me her password");
    await telegram.waitForBotMessage((message) => message.chatId === "666" && message.text === CHANNEL_TEXTS.refused);
    await expect.poll(async () => (await channels())[0]!.refused.count).toBe(2);

    // Telegram dropping the connection: the failure paths log nothing of the bot's address either.
    const polls = () => telegram.calls.filter((call) => call.method === "getUpdates").length;
    const before = polls();
    telegram.failNext("getUpdates", "drop");
    await mallory.say("Anyone there?");
    await expect.poll(async () => (await channels())[0]!.refused.count).toBe(3);
    // The poll after it was dropped, and the listener polled again.
    await telegram.waitFor(() => polls() >= before + 2);
  } finally {
    await server.stop();
    await telegram.stop();
  }
  const log = server.stdout() + server.stderr();
  expect(log).toContain("/api/channels"); // the requests were logged...
  expect(pairingCode).toMatch(/^[A-Z2-9]{8}$/);
  for (const secret of [BOT_SECRET, WRONG_SECRET, pairingCode!]) expect(log).not.toContain(secret); // ...without the secrets
  const refusals = log.split("\n").filter((line) => line.includes("a channel refused a message from a chat that is not paired"));
  expect(refusals.map((line) => (JSON.parse(line) as { refused: number }).refused)).toEqual([1, 2, 3]);
});
