import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { figure, percentile, round } from "../lib/figure.mjs";
import { probeHealthDuring } from "../lib/health-probe.mjs";
import { startSage } from "../lib/server.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (value) => String(value).padStart(2, "0");
const utcStamp = (date) =>
  `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}00`;

/**
 * Scheduled runs (issue 31, decision 036): 200 schedules (50 with --quick) due in the same minute on the built
 * server, each running a whole turn against the fake Gemini. Fire lag = a run's start (its history's startedAt: when
 * the scheduler claimed and began it, or left its queue) minus its due time; p99 against the limit, 2 s.
 * params also give when each run's turn saved its prompt in the conversation (its first visible step). /api/health is asked every 10 ms from a
 * child process from 2 s before the minute until every run has finished; its p99 beside the same probe on the
 * same server idle for 3 s before.
 */
export async function schedules({ quick }) {
  const count = quick ? 50 : 200;
  const fake = await startFakeGemini();
  const sage = await startSage({ label: "schedules", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "bench", GEMINI_BASE_URL: fake.baseUrl } });
  try {
    const cookie = await sage.login();
    const headers = { "content-type": "application/json", cookie };
    const api = async (method, path, body) => (await fetch(`${sage.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) })).json();
    const { latencies: idle } = await probeHealthDuring(sage.url, () => sleep(3000));

    // The first whole minute at least 20 s away, so every schedule is made before it.
    const due = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    const rrule = `DTSTART;TZID=UTC:${utcStamp(due)}\nRRULE:FREQ=DAILY`;
    const ids = [];
    for (let index = 0; index < count; index++) {
      const made = await api("POST", "/api/schedules", { title: `Brief ${index}`, prompt: `Brief me on topic ${index}`, rrule, timezone: "UTC" });
      if (made.nextRunAt !== due.toISOString()) throw new Error(`schedule ${index} is due at ${made.nextRunAt}, not ${due.toISOString()}`);
      ids.push(made.id);
    }
    await sleep(Math.max(0, due.getTime() - Date.now() - 2000));
    const { latencies: during } = await probeHealthDuring(sage.url, async () => {
      const deadline = due.getTime() + 120_000;
      while (Date.now() < deadline) {
        await sleep(250);
        if (Date.now() < due.getTime()) continue;
        const listed = await api("GET", "/api/schedules");
        if (listed.every((schedule) => schedule.lastStatus && !["running", "waiting-approval"].includes(schedule.lastStatus))) return;
      }
      throw new Error("the scheduled runs did not all finish within 2 minutes");
    });
    const runs = [];
    for (const id of ids) runs.push(...(await api("GET", `/api/schedules/${id}/runs`)));
    if (runs.length !== count) throw new Error(`${runs.length} runs for ${count} schedules`);
    const lags = runs.map((run) => new Date(run.startedAt).getTime() - new Date(run.dueAt).getTime());
    // When each run's turn saved the prompt as the conversation's message: the run's first visible step.
    const firstMessageLags = [];
    for (const run of runs) {
      const messages = await api("GET", `/api/conversations/${run.conversationId}/messages`);
      const prompt = messages.find((message) => message.id === run.messageIds[0]);
      firstMessageLags.push(new Date(prompt.createdAt).getTime() - new Date(run.dueAt).getTime());
    }
    const finished = runs.map((run) => new Date(run.finishedAt).getTime() - due.getTime());
    const statuses = Object.fromEntries(
      [...new Set(runs.map((run) => run.status))].map((status) => [status, runs.filter((run) => run.status === status).length]),
    );
    return [
      figure({
        name: "schedule.fire_lag_p99",
        value: percentile(lags, 99),
        unit: "ms",
        limit: 2000,
        better: "lower",
        target: "<= 2000 ms",
        params: {
          schedules: count,
          p50Ms: round(percentile(lags, 50), 1),
          maxMs: round(Math.max(...lags), 1),
          minMs: round(Math.min(...lags), 1),
          lastFinishedAfterMs: Math.max(...finished),
          promptSavedP50Ms: round(percentile(firstMessageLags, 50), 1),
          promptSavedP99Ms: round(percentile(firstMessageLags, 99), 1),
          statuses,
          modelCalls: fake.requests.length,
        },
      }),
      figure({
        name: "schedule.health_p99_during_runs",
        value: percentile(during, 99),
        unit: "ms",
        limit: percentile(idle, 99),
        better: "lower",
        target: "<= 50 ms",
        params: {
          pings: during.length,
          p50Ms: round(percentile(during, 50), 1),
          maxMs: round(Math.max(...during), 1),
          idleP99Ms: round(percentile(idle, 99), 2),
        },
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
  }
}
