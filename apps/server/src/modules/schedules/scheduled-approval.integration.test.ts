import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startPushReceiver, type PushReceiver } from "@sage/testkit/push-receiver";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNATTENDED_REASON } from "../assistant/assistant.module.ts";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

describe("a scheduled run that reaches sendEmail, with a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  let phone: PushReceiver;
  beforeAll(async () => {
    [smtp, gemini, phone] = await Promise.all([startSmtp("exec@example.com", "smtp-app-password"), startFakeGemini(), startPushReceiver()]);
  });
  afterAll(async () => Promise.all([smtp?.close(), gemini?.close(), phone?.close()]));

  let t: TestApp;
  let cookie: string;
  let clock = new Date("2026-07-15T04:59:00Z");
  beforeEach(async () => {
    gemini.reset();
    smtp.received.length = 0;
    clock = new Date("2026-07-15T04:59:00Z");
    t = await createTestApp({
      // Private addresses allowed: the push receiver listens on 127.0.0.1.
      env: {
        SAGE_FETCH_ALLOW_PRIVATE: "true",
        SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
        GEMINI_API_KEY: "mail-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
      },
      now: () => clock,
    });
    cookie = await t.login();
    const server = { host: "127.0.0.1", secure: false, user: "exec@example.com", password: "smtp-app-password" };
    await t.app.inject({
      method: "POST",
      url: "/api/accounts",
      headers: { cookie },
      payload: { kind: "mail", name: "Work mail", imap: { ...server, port: 9 }, smtp: { ...server, port: smtp.port } },
    });
    await t.jobs.idle();
  });
  afterEach(async () => {
    await t.schedules.idle();
    await t.close();
  });

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  async function runUntilWaiting() {
    const { id } = (
      await api("POST", "/api/schedules", {
        title: "Thank Anna",
        prompt: "Every morning, email Anna (anna@example.com) a thank-you",
        rrule: "DTSTART;TZID=Europe/Zurich:20260701T070000\nRRULE:FREQ=DAILY",
        timezone: "Europe/Zurich",
      })
    ).json();
    gemini.script(
      { functionCalls: [{ name: "sendEmail", args: { to: ["anna@example.com"], subject: "Thanks", body: "Thank you, Anna." } }] },
      { text: "Done." },
    );
    clock = new Date("2026-07-15T05:00:00Z");
    await t.schedules.tick();
    for (let i = 0; i < 400; i++) {
      const [run] = (await api("GET", `/api/schedules/${id}/runs`)).json();
      if (run?.status === "waiting-approval") return { id, run };
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("the run never waited for approval");
  }

  it("stops at sendEmail: nothing is sent, the run waits for approval, the card is pending and the user's phone told", async () => {
    phone.received.length = 0;
    expect((await api("POST", "/api/push/subscriptions", phone.subscription())).statusCode).toBe(201);
    const { id } = await runUntilWaiting();
    await t.push.idle();
    expect(phone.received.map((push) => JSON.parse(push.payload))).toEqual([
      expect.objectContaining({ kind: "approvals", title: "Thank Anna", body: "A scheduled task is waiting for your approval." }),
    ]);
    const { approvals } = (await api("GET", "/api/approvals")).json();
    // The card names the schedule's conversation, so its chat page shows it (nobody watched the run's stream).
    const { conversationId } = (await api("GET", "/api/schedules")).json()[0];
    expect(approvals).toEqual([
      expect.objectContaining({
        name: "sendEmail",
        reason: `${UNATTENDED_REASON} As you asked: to anna@example.com.`,
        risk: "asked",
        args: expect.objectContaining({ to: ["anna@example.com"] }),
        conversationId,
      }),
    ]);
    expect(conversationId).toEqual(expect.any(Number));
    expect(smtp.received).toEqual([]);
    expect((await api("GET", "/api/schedules")).json()[0].lastStatus).toBe("waiting-approval");
    // Declined: still nothing sent, and the run says a step was not approved.
    expect((await api("POST", `/api/approvals/${approvals[0].approvalId}`, { approved: false })).statusCode).toBe(200);
    await t.schedules.idle();
    const [run] = (await api("GET", `/api/schedules/${id}/runs`)).json();
    expect(run.status).toBe("not-approved");
    expect(smtp.received).toEqual([]);
    const messages = (await api("GET", `/api/conversations/${run.conversationId}/messages`)).json();
    expect(messages.at(-1).toolCalls[0]).toMatchObject({
      name: "sendEmail",
      approval: { answer: "declined", reason: `${UNATTENDED_REASON} As you asked: to anna@example.com.` },
    });
    await t.push.idle();
    expect(JSON.parse(phone.received.at(-1)!.payload)).toEqual({
      kind: "runs",
      title: "Thank Anna",
      body: "This scheduled task stopped: a step was not approved.",
      url: `/conversations/${run.conversationId}`,
    });
  });

  it("sends only once the user approves, and the run then finishes", async () => {
    const { id } = await runUntilWaiting();
    const { approvals } = (await api("GET", "/api/approvals")).json();
    expect((await api("POST", `/api/approvals/${approvals[0].approvalId}`, { approved: true })).statusCode).toBe(200);
    await t.schedules.idle();
    expect(smtp.received).toHaveLength(1);
    expect((await api("GET", `/api/schedules/${id}/runs`)).json()[0].status).toBe("succeeded");
  });
});
