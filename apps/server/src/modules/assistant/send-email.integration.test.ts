import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEND_EMAIL_TEXTS } from "./tools/send-email-tool.ts";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

describe("sendEmail behind Approve, through a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  beforeAll(async () => {
    [smtp, gemini] = await Promise.all([startSmtp("exec@example.com", "smtp-app-password"), startFakeGemini()]);
  });
  afterAll(async () => Promise.all([smtp?.close(), gemini?.close()]));

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    gemini.reset();
    smtp.received.length = 0;
    t = await createTestApp({
      env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", GEMINI_API_KEY: "mail-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
    });
    cookie = await t.login();
    // IMAP is not running here: the account's sync fails, which sending does not need.
    const server = { host: "127.0.0.1", secure: false, user: "exec@example.com", password: "smtp-app-password" };
    await t.app.inject({
      method: "POST",
      url: "/api/accounts",
      headers: { cookie },
      payload: { kind: "mail", name: "Work mail", imap: { ...server, port: 9 }, smtp: { ...server, port: smtp.port } },
    });
    await t.jobs.idle();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  async function waitForApproval(): Promise<{ approvalId: string; name: string; args: Record<string, unknown> }> {
    for (let i = 0; i < 400; i++) {
      const { approvals } = (await api("GET", "/api/approvals")).json();
      if (approvals.length > 0) return approvals[0];
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("no approval was asked for");
  }

  async function askToSend(approved: boolean) {
    const conversationId = (await api("POST", "/api/conversations", { name: "Reply" })).json().id as number;
    gemini.script(
      {
        functionCalls: [
          { name: "sendEmail", args: { to: ["anna@example.com"], cc: "cfo@example.com", subject: "Budget", body: "Anna, I agree with the budget." } },
        ],
      },
      { text: approved ? "Sent." : "Not sent." },
    );
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, {
      content: "Reply to Anna (anna@example.com), copying cfo@example.com, that I agree with the budget",
    });
    const approval = await waitForApproval();
    // Nothing has left before the answer.
    expect(smtp.received).toEqual([]);
    // Addresses the user typed: a calm card that lists the people in words, never JSON (issue 47).
    expect(approval).toMatchObject({
      name: "sendEmail",
      args: { from: "exec@example.com", to: ["anna@example.com"], cc: ["cfo@example.com"], subject: "Budget", body: "Anna, I agree with the budget." },
      risk: "asked",
      reason: "As you asked: to anna@example.com; cc cfo@example.com.",
      summary: ["From: exec@example.com", "To: anna@example.com", "Cc: cfo@example.com", "Subject: Budget", "Message: Anna, I agree with the budget."],
    });
    expect((await api("POST", `/api/approvals/${approval.approvalId}`, { approved })).statusCode).toBe(200);
    const events = turnEvents((await turn).body);
    return events.find(([event]) => event === "tool-result")![1].result;
  }

  it("sends nothing until the user approves, then delivers exactly the message shown", async () => {
    expect(await askToSend(true)).toEqual({ success: true, message: SEND_EMAIL_TEXTS.sent(["anna@example.com"]) });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.from).toBe("exec@example.com");
    expect(mail!.to).toEqual(["anna@example.com", "cfo@example.com"]);
    expect(mail!.data).toMatch(/^Subject: Budget\r?$/m);
    expect(mail!.data).toContain("Anna, I agree with the budget.");
  });

  it("sends nothing when the user declines", async () => {
    expect(await askToSend(false)).toEqual({ success: false, declined: true, message: SEND_EMAIL_TEXTS.declined });
    // A mail sent is received before the turn's answer (the test above): none came with this one.
    expect(smtp.received).toEqual([]);
  });
});
