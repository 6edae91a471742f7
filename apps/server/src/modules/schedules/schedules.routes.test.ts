import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { SCHEDULE_ERRORS } from "@sage/contracts/schedules";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
let clock: Date;
const opened: { close(): Promise<void> }[] = [];

async function start(at: string) {
  clock = new Date(at);
  t = await createTestApp({ env: { GEMINI_API_KEY: "schedule-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" }, now: () => clock });
  cookie = await t.login();
}

beforeEach(() => gemini.reset());
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
  await t?.schedules.idle();
  await t?.close();
});

const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, as = cookie) =>
  t.app.inject({ method, url, headers: { cookie: as }, ...(payload ? { payload } : {}) });
const WEEKDAYS_7 = "DTSTART;TZID=Europe/Zurich:20261127T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
const DAILY_7 = "DTSTART;TZID=Europe/Zurich:20260701T070000\nRRULE:FREQ=DAILY";
const create = (extra: object = {}) =>
  api("POST", "/api/schedules", { title: "Morning brief", prompt: "Brief me on the markets", rrule: DAILY_7, timezone: "Europe/Zurich", ...extra });
const runsOf = async (id: number) => (await api("GET", `/api/schedules/${id}/runs`)).json() as any[];
const messagesOf = async (conversationId: number) => (await api("GET", `/api/conversations/${conversationId}/messages`)).json() as any[];
const modelCalls = () => gemini.requests.filter((request) => request.action === "streamGenerateContent");

describe("/api/schedules", () => {
  it("creates a schedule whose next run honours the time zone: 07:00 Zurich is 06:00 UTC in winter, 05:00 in summer", async () => {
    await start("2026-11-27T08:00:00Z"); // Friday 09:00 in Zurich
    const winter = await create({ rrule: WEEKDAYS_7 });
    expect(winter.statusCode, winter.body).toBe(201);
    expect(winter.json()).toMatchObject({
      title: "Morning brief",
      paused: false,
      nextRunAt: "2026-11-30T06:00:00.000Z",
      nextRuns: ["2026-11-30T06:00:00.000Z", "2026-12-01T06:00:00.000Z", "2026-12-02T06:00:00.000Z"],
      summary: "every weekday at 07:00 (Europe/Zurich)",
      lastRunAt: null,
      lastStatus: null,
      conversationId: null,
    });
    clock = new Date("2027-06-10T12:00:00Z");
    const summer = await create({ rrule: "DTSTART;TZID=Europe/Zurich:20270601T070000\nRRULE:FREQ=DAILY" });
    expect(summer.json().nextRunAt).toBe("2027-06-11T05:00:00.000Z");
    expect((await api("GET", "/api/schedules")).json().map((item: any) => item.title)).toEqual(["Morning brief", "Morning brief"]);
  });

  it("refuses a rule or a time zone it cannot read with a plain 400, and saves nothing", async () => {
    await start("2026-11-27T08:00:00Z");
    const cases: [object, string][] = [
      [{ rrule: "RRULE:FREQ=DAILY" }, SCHEDULE_ERRORS.rruleNeedsStart],
      [{ rrule: "DTSTART:20261127T070000\nRRULE:FREQ=NEVER" }, SCHEDULE_ERRORS.rruleInvalid],
      [{ rrule: "DTSTART:20200101T070000\nRRULE:FREQ=DAILY;COUNT=2" }, SCHEDULE_ERRORS.rruleNeverRuns],
      [{ timezone: "Europe/Atlantis" }, SCHEDULE_ERRORS.timezoneInvalid("Europe/Atlantis")],
      [{ title: " " }, SCHEDULE_ERRORS.titleRequired],
      [{ prompt: "" }, SCHEDULE_ERRORS.promptRequired],
      [{ conversationId: 999 }, SCHEDULE_ERRORS.conversationNotFound],
    ];
    for (const [input, message] of cases) {
      const response = await create(input);
      expect([response.statusCode, response.json().error], JSON.stringify(input)).toEqual([
        message === SCHEDULE_ERRORS.conversationNotFound ? 404 : 400,
        message,
      ]);
    }
    expect((await api("GET", "/api/schedules")).json()).toEqual([]);
  });

  it("pauses, resumes, edits and deletes; another user sees none of it", async () => {
    await start("2026-07-15T12:00:00Z");
    const { id } = (await create()).json();
    const paused = await api("PATCH", `/api/schedules/${id}`, { paused: true });
    expect(paused.json()).toMatchObject({ paused: true, nextRunAt: null, nextRuns: [] });
    // Resumed two days later: the runs missed while paused are not made up; the next is tomorrow's.
    clock = new Date("2026-07-17T12:00:00Z");
    expect((await api("PATCH", `/api/schedules/${id}`, { paused: false })).json()).toMatchObject({ paused: false, nextRunAt: "2026-07-18T05:00:00.000Z" });
    await t.schedules.tick();
    expect(await runsOf(id)).toEqual([]);
    const edited = await api("PATCH", `/api/schedules/${id}`, {
      title: "Evening brief",
      rrule: "DTSTART;TZID=Europe/Zurich:20260701T180000\nRRULE:FREQ=DAILY",
    });
    expect(edited.json()).toMatchObject({ title: "Evening brief", nextRunAt: "2026-07-17T16:00:00.000Z", summary: "every day at 18:00 (Europe/Zurich)" });
    expect((await api("PATCH", `/api/schedules/${id}`, {})).json().error).toBe(SCHEDULE_ERRORS.nothingToUpdate);

    const other = await t.loginAsNewUser();
    expect((await api("GET", "/api/schedules", undefined, other.cookie)).json()).toEqual([]);
    for (const [method, url] of [
      ["PATCH", `/api/schedules/${id}`],
      ["DELETE", `/api/schedules/${id}`],
      ["POST", `/api/schedules/${id}/run`],
      ["GET", `/api/schedules/${id}/runs`],
    ] as const) {
      const response = await api(method, url, method === "PATCH" ? { paused: true } : undefined, other.cookie);
      expect([response.statusCode, response.json().error]).toEqual([404, SCHEDULE_ERRORS.scheduleNotFound]);
    }
    expect((await api("DELETE", `/api/schedules/${id}`)).json()).toEqual({ ok: true });
    expect((await api("GET", "/api/schedules")).json()).toEqual([]);
  });
});

describe("the scheduler", () => {
  it("runs a due schedule once, as a whole turn saved in a conversation it makes, and moves to the next day", async () => {
    await start("2026-07-15T04:59:00Z");
    const { id } = (await create()).json();
    await t.schedules.tick();
    expect(await runsOf(id)).toEqual([]);
    gemini.script({ text: "Markets are calm this morning." });
    clock = new Date("2026-07-15T05:00:01Z");
    await Promise.all([t.schedules.tick(), t.schedules.tick()]);
    await t.schedules.tick();
    await t.schedules.idle();
    const runs = await runsOf(id);
    expect(runs).toEqual([
      expect.objectContaining({ dueAt: "2026-07-15T05:00:00.000Z", status: "succeeded", late: false, manual: false, finishedAt: expect.any(String) }),
    ]);
    expect(modelCalls()).toHaveLength(1);
    const conversationId = runs[0].conversationId as number;
    const messages = await messagesOf(conversationId);
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Brief me on the markets"],
      ["model", "Markets are calm this morning."],
    ]);
    expect(runs[0].messageIds).toEqual(messages.map((message) => message.id));
    const [listed] = (await api("GET", "/api/schedules")).json();
    expect(listed).toMatchObject({ conversationId, nextRunAt: "2026-07-16T05:00:00.000Z", lastStatus: "succeeded", lastRunAt: "2026-07-15T05:00:01.000Z" });
    // The next day's run writes into the same conversation.
    clock = new Date("2026-07-16T05:00:00Z");
    await t.schedules.tick();
    await t.schedules.idle();
    expect((await runsOf(id)).map((run) => [run.dueAt, run.conversationId])).toEqual([
      ["2026-07-16T05:00:00.000Z", conversationId],
      ["2026-07-15T05:00:00.000Z", conversationId],
    ]);
  });

  it("after the server was down, runs only the latest missed occurrence, once, marked late", async () => {
    await start("2026-07-14T12:00:00Z");
    const { id } = (await create()).json();
    // Down from the 14th to the 17th at noon: the 15th, 16th and 17th at 07:00 were missed.
    const restarted = await t.reopenApp({ now: () => new Date("2026-07-17T12:00:00Z") });
    opened.push(restarted.app);
    await restarted.schedules.idle();
    await restarted.schedules.tick();
    await restarted.schedules.idle();
    const runs = await runsOf(id);
    expect(runs).toEqual([expect.objectContaining({ dueAt: "2026-07-17T05:00:00.000Z", late: true, status: "succeeded" })]);
    expect(modelCalls()).toHaveLength(1);
    expect((await api("GET", "/api/schedules")).json()[0].nextRunAt).toBe("2026-07-18T05:00:00.000Z");
  });

  // One process alone on its store: a restart means the old process is gone. On a shared database the old process may
  // still be running it, so only a run whose lease ran out is marked (schedules.integration.test.ts, decision 058).
  it.skipIf(process.env.SAGE_TEST_ON_POSTGRES)("a restart during a run does not run it again: the cut run is marked interrupted", async () => {
    await start("2026-07-15T04:59:30Z");
    const { id } = (await create()).json();
    clock = new Date("2026-07-15T05:00:00Z");
    gemini.script({ chunks: ["Slow ", "answer"], delayMs: 800 });
    void t.schedules.tick();
    for (let i = 0; i < 200 && modelCalls().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await runsOf(id))[0].status).toBe("running");
    // The process "dies" here: a new one starts over the same database, at the same minute.
    const restarted = await t.reopenApp();
    opened.push(restarted.app);
    await restarted.schedules.tick();
    await restarted.schedules.idle();
    const runs = await runsOf(id);
    expect(runs).toEqual([expect.objectContaining({ dueAt: "2026-07-15T05:00:00.000Z", status: "interrupted" })]);
    expect(modelCalls()).toHaveLength(1);
  });

  it("two schedulers over one database (a restart overlapping the old process) claim an occurrence once", async () => {
    await start("2026-07-15T04:59:00Z");
    const { id } = (await create()).json();
    const other = await t.reopenApp();
    opened.push(other.app);
    clock = new Date("2026-07-15T05:00:00Z");
    await Promise.all([t.schedules.tick(), other.schedules.tick()]);
    await Promise.all([t.schedules.idle(), other.schedules.idle()]);
    expect((await runsOf(id)).map((run) => [run.dueAt, run.status])).toEqual([["2026-07-15T05:00:00.000Z", "succeeded"]]);
    expect(modelCalls()).toHaveLength(1);
  });

  it("Run now starts a run of its own at once and lists it in the history", async () => {
    await start("2026-07-15T12:00:00Z");
    const { id } = (await create()).json();
    gemini.script({ text: "Here is your brief." });
    const started = await api("POST", `/api/schedules/${id}/run`);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ scheduleId: id, manual: true, status: "running" });
    await t.schedules.idle();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ manual: true, status: "succeeded" });
    expect((await messagesOf(run.conversationId)).map((message) => message.content)).toEqual(["Brief me on the markets", "Here is your brief."]);
    // Run now does not move the rule's own next occurrence.
    expect((await api("GET", "/api/schedules")).json()[0].nextRunAt).toBe("2026-07-16T05:00:00.000Z");
  });

  it("without a model the run fails saying so, and writes nothing", async () => {
    clock = new Date("2026-07-15T04:59:00Z");
    t = await createTestApp({ env: { SAGE_EMBEDDER: "none" }, now: () => clock });
    cookie = await t.login();
    const { id } = (await create()).json();
    clock = new Date("2026-07-15T05:00:00Z");
    await t.schedules.tick();
    await t.schedules.idle();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: "failed", messageIds: [] });
    expect(run.error).toMatch(/model/i);
    expect(await messagesOf(run.conversationId)).toEqual([]);
  });
});
