import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { startTelegramServer } from "@sage/testkit/telegram-server";
import { figure, percentile } from "../lib/figure.mjs";
import { startSage } from "../lib/server.mjs";
import { timeToFirst } from "../lib/time-to-first.mjs";

/** Resolves with the milliseconds since `startedAt` once `check` holds (checked every millisecond). */
async function until(check, startedAt, timeoutMs = 30_000) {
  for (;;) {
    if (check()) return performance.now() - startedAt;
    if (performance.now() - startedAt > timeoutMs) throw new Error("the channel did not answer in time");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * Issue 49: a message in a Telegram chat (telegram-test-api, polled by the server's grammY listener) to the first
 * message of the answer out, the fake model answering at once; beside the web turn's own figure in the same run:
 * POST /api/conversations/{id}/turn to its first text-delta. Target: channel p95 <= 1.5 x web p95.
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
      const before = telegram.botMessages(501).length;
      const startedAt = performance.now();
      await anna.say(text);
      return until(() => telegram.botMessages(501).length > before, startedAt);
    };
    const viaWeb = async (text) => {
      const { id } = await post("/api/conversations", { name: "Bench" });
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
    const webMs = [];
    for (let i = 0; i < runs; i++) {
      channelMs.push(await viaChannel(`What is on my calendar on day ${i}?`));
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
        params: { runs, channelP50Ms: percentile(channelMs, 50), webP50Ms: percentile(webMs, 50), webP95Ms: percentile(webMs, 95) },
      }),
    ];
  } finally {
    await sage.stop();
    await Promise.all([telegram.stop(), fake.close()]);
  }
}
