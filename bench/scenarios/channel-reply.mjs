import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { startTelegramServer } from "@sage/testkit/telegram-server";
import { figure, percentile } from "../lib/figure.mjs";
import { startSage } from "../lib/server.mjs";
import { timeToFirst } from "../lib/time-to-first.mjs";

/**
 * Milliseconds from `startedAt` until the bot's next message reaches the emulator (its "AddedBotMessage" event). An
 * event, not a poll: this process also runs the emulator SAGE talks to, and a loop reading every stored message each
 * millisecond took CPU from it in the very interval being measured.
 */
function nextBotMessage(telegram, startedAt, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      telegram.emulator.off("AddedBotMessage", added);
      reject(new Error("the channel did not answer in time"));
    }, timeoutMs);
    function added() {
      clearTimeout(timer);
      resolve(performance.now() - startedAt);
    }
    telegram.emulator.once("AddedBotMessage", added);
  });
}

/**
 * Issue 49: a message in a Telegram chat (telegram-test-api, polled by the server's grammY listener) to the first
 * message of the answer out, the fake model answering at once; beside the web turn's own figure in the same run:
 * POST /api/conversations/{id}/turn to its first text-delta, in one conversation as the channel's turns are.
 * Target: channel p95 <= 1.5 x web p95.
 *
 * The figure is SAGE's own share (decision 101): from the getUpdates answer that hands SAGE the message to SAGE's
 * sendMessage of the first piece of the answer, both seen at SAGE's door to Telegram, as the web figure is seen at
 * its door to the browser. The emulator's own hops (the test user's message into the emulator, the emulator storing
 * what the bot sent: Telegram's network and servers in real life) are in `params.endToEnd*`.
 */
export async function channelReply({ quick }) {
  const runs = quick ? 15 : 40;
  const [fake, telegram] = await Promise.all([startFakeGemini(), startTelegramServer()]);
  const sage = await startSage({
    label: "channel-reply",
    env: {
      SAGE_LLM_PROVIDER: "gemini",
      GEMINI_API_KEY: "bench",
      GEMINI_BASE_URL: fake.baseUrl,
      SAGE_EMBEDDER: "none",
      SAGE_TELEGRAM_API_ROOT: telegram.apiRoot,
    },
  });
  try {
    const cookie = await sage.login();
    const headers = { "content-type": "application/json", cookie };
    const post = async (path, body) => (await fetch(`${sage.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json();
    const { pairingCode } = await post("/api/channels", { kind: "telegram", token: telegram.token });
    const anna = telegram.user({ userId: 501, firstName: "Anna" });
    await anna.say(pairingCode);
    await telegram.waitForBotMessage((message) => message.text.includes("connected to SAGE"));

    const viaChannel = async (text) => {
      const delivered = telegram.deliveries.length;
      const called = telegram.calls.length;
      const startedAt = performance.now();
      const answered = nextBotMessage(telegram, startedAt);
      await anna.say(text);
      const endToEnd = await answered;
      const handed = telegram.deliveries[delivered].hrAt;
      const reply = telegram.calls.slice(called).find((call) => call.method === "sendMessage" && call.hrAt >= handed);
      return { endToEnd, sage: reply.hrAt - handed };
    };
    // One web conversation, as the channel has one: both turns carry the same history, so the figures differ only by
    // the door the message came through (decision 101).
    const { id } = await post("/api/conversations", { name: "Bench" });
    const viaWeb = async (text) => {
      return timeToFirst(
        `${sage.url}/api/conversations/${id}/turn`,
        { method: "POST", headers, body: JSON.stringify({ content: text }) },
        "event: text-delta",
        {
          readToEnd: true,
        },
      );
    };
    for (let i = 0; i < 3; i++) {
      await viaChannel(`Warm-up question ${i}?`);
      await viaWeb(`Warm-up question ${i}?`);
    }
    const channelMs = [];
    const endToEndMs = [];
    const webMs = [];
    for (let i = 0; i < runs; i++) {
      const channel = await viaChannel(`What is on my calendar on day ${i}?`);
      channelMs.push(channel.sage);
      endToEndMs.push(channel.endToEnd);
      webMs.push(await viaWeb(`What is on my calendar on day ${i}?`));
    }
    const limit = percentile(webMs, 95) * 1.5;
    return [
      figure({
        name: "channel.reply_overhead_p95",
        value: percentile(channelMs, 95),
        unit: "ms",
        limit,
        better: "lower",
        target: "<= 1.5 x the web turn's p95 (limit)",
        params: {
          runs,
          channelP50Ms: percentile(channelMs, 50),
          endToEndP50Ms: percentile(endToEndMs, 50),
          endToEndP95Ms: percentile(endToEndMs, 95),
          webP50Ms: percentile(webMs, 50),
          webP95Ms: percentile(webMs, 95),
        },
      }),
    ];
  } finally {
    await sage.stop();
    await Promise.all([telegram.stop(), fake.close()]);
  }
}
