import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";
import { SCHEDULE_TASK_TEXTS } from "./schedule-task-tool.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  gemini.reset();
  // Friday 27 November 2026, 09:00 in Zurich.
  t = await createTestApp({
    env: { GEMINI_API_KEY: "task-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
    now: () => new Date("2026-11-27T08:00:00Z"),
  });
  cookie = await t.login();
});
afterEach(async () => t.close());

const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function waitForApproval() {
  for (let i = 0; i < 400; i++) {
    const { approvals } = (await api("GET", "/api/approvals")).json();
    if (approvals.length > 0) return approvals[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no approval was asked for");
}

async function askToSchedule(approved: boolean) {
  const conversationId = (await api("POST", "/api/conversations", { name: "Plans" })).json().id as number;
  gemini.script(
    {
      functionCalls: [
        {
          name: "scheduleTask",
          args: { title: "Market brief", prompt: "Brief me on the markets", time: "07:00", days: ["MO", "TU", "WE", "TH", "FR"], timezone: "Europe/Zurich" },
        },
      ],
    },
    { text: approved ? "Scheduled." : "Not scheduled." },
  );
  const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Every weekday at 7 brief me on the markets" });
  const approval = await waitForApproval();
  expect((await api("GET", "/api/schedules")).json()).toEqual([]);
  expect((await api("POST", `/api/approvals/${approval.approvalId}`, { approved })).statusCode).toBe(200);
  const events = turnEvents((await turn).body);
  return { approval, result: events.find(([event]) => event === "tool-result")![1].result };
}

describe("the scheduleTask tool", () => {
  it("shows the schedule in plain words with its next three runs, and makes it only on Approve", async () => {
    const { approval, result } = await askToSchedule(true);
    expect(approval.summary).toEqual([
      "Market brief: every weekday at 07:00 (Europe/Zurich)",
      'SAGE will ask: "Brief me on the markets"',
      "Next runs: Mon, 30 Nov 2026, 07:00; Tue, 1 Dec 2026, 07:00; Wed, 2 Dec 2026, 07:00",
    ]);
    expect(result).toMatchObject({ success: true, message: SCHEDULE_TASK_TEXTS.created("every weekday at 07:00 (Europe/Zurich)") });
    expect((await api("GET", "/api/schedules")).json()).toEqual([
      expect.objectContaining({ title: "Market brief", prompt: "Brief me on the markets", timezone: "Europe/Zurich", nextRunAt: "2026-11-30T06:00:00.000Z" }),
    ]);
  });

  it("makes nothing when the user declines", async () => {
    const { result } = await askToSchedule(false);
    expect(result).toMatchObject({ success: false, declined: true, message: SCHEDULE_TASK_TEXTS.declined });
    expect((await api("GET", "/api/schedules")).json()).toEqual([]);
  });

  it("schedules a run for each mail that mentions some words, shown in plain words on its card", async () => {
    const conversationId = (await api("POST", "/api/conversations", { name: "Plans" })).json().id as number;
    gemini.script(
      {
        functionCalls: [{ name: "scheduleTask", args: { title: "Invoices", prompt: "Summarise the invoice and its amount", when: "mail", match: "invoice" } }],
      },
      { text: "Scheduled." },
    );
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Whenever an invoice arrives, summarise it for me" });
    const approval = await waitForApproval();
    expect(approval.summary).toEqual([
      'Invoices: when a mail arrives that mentions "invoice"',
      'SAGE will ask: "Summarise the invoice and its amount"',
      SCHEDULE_TASK_TEXTS.eachOnce,
    ]);
    expect((await api("POST", `/api/approvals/${approval.approvalId}`, { approved: true })).statusCode).toBe(200);
    const result = turnEvents((await turn).body).find(([event]) => event === "tool-result")![1].result;
    expect(result).toMatchObject({ success: true, message: SCHEDULE_TASK_TEXTS.created('when a mail arrives that mentions "invoice"') });
    expect((await api("GET", "/api/schedules")).json()).toEqual([
      expect.objectContaining({ title: "Invoices", trigger: { kind: "mail", match: "invoice" }, nextRunAt: null, rrule: "" }),
    ]);
  });
});
