import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { figure, percentile } from "../lib/figure.mjs";
import { startSage } from "../lib/server.mjs";
import { timeToFirst } from "../lib/time-to-first.mjs";

/** Time to first token of a streamed chat turn through SAGE, beside the same request straight to the fake Gemini. */
export async function chatTtft({ quick }) {
  const runs = quick ? 15 : 40;
  const fake = await startFakeGemini();
  const sage = await startSage({ label: "chat", env: { GEMINI_API_KEY: "bench", GEMINI_BASE_URL: fake.baseUrl } });
  try {
    const cookie = await sage.login();
    const text = "Draft a short note to the board about the quarterly results.";
    const direct = () =>
      timeToFirst(
        `${fake.baseUrl}/models/gemini-2.0-flash:streamGenerateContent?alt=sse`,
        {
          method: "POST",
          headers: { "content-type": "application/json", "x-goog-api-key": "bench" },
          body: JSON.stringify({ contents: [{ role: "user", parts: [{ text }] }] }),
        },
        "data:",
      );
    const throughSage = () =>
      timeToFirst(
        `${sage.url}/api/gemini/chat`,
        {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ messages: [{ role: "user", content: text }], model: "gemini-2.0-flash", stream: true }),
        },
        "event: text-delta",
      );
    for (let i = 0; i < 3; i++) await Promise.all([direct(), throughSage()].map((p) => p.catch(() => {})));
    const directMs = [];
    const sageMs = [];
    for (let i = 0; i < runs; i++) {
      directMs.push(await direct());
      sageMs.push(await throughSage());
    }
    const limit = percentile(directMs, 50);
    const value = percentile(sageMs, 50);
    return [
      figure({
        name: "chat.ttft_added",
        value: value - limit,
        unit: "ms",
        better: "lower",
        target: "<= 15 ms",
        params: { runs, sageP50Ms: value, directP50Ms: limit, sageP95Ms: percentile(sageMs, 95), directP95Ms: percentile(directMs, 95) },
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
  }
}
