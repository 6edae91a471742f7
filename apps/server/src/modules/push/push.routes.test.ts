import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startPushReceiver, type PushReceiver } from "@sage/testkit/push-receiver";
import { PUSH_TEXTS } from "@sage/contracts/push";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pushEndpointAllowed } from "../../providers/push/web-push.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let gemini: FakeGemini;
let receiver: PushReceiver;
beforeAll(async () => {
  gemini = await startFakeGemini();
  receiver = await startPushReceiver();
});
afterAll(async () => {
  await gemini.close();
  await receiver.close();
});

let t: TestApp;
afterEach(async () => {
  await t?.schedules.idle();
  await t?.close();
});

describe("web push", () => {
  it("pushes a due reminder once and a finished run, encrypted and signed, each kind switchable; a gone device is dropped", async () => {
    let clock = new Date("2026-11-27T08:00:00Z");
    // The receiver listens on 127.0.0.1: private addresses are allowed here as an operator would for a LAN push service.
    t = await createTestApp({
      env: { GEMINI_API_KEY: "push-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_FETCH_ALLOW_PRIVATE: "true" },
      now: () => clock,
    });
    const cookie = await t.login();
    const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

    const status = (await api("GET", "/api/push")).json();
    expect(status).toMatchObject({ settings: { reminders: true, runs: true, approvals: true }, devices: 0 });
    expect(Buffer.from(status.publicKey, "base64url")).toHaveLength(65);
    // Made once: the private half is sealed in the store, and the same pair is used after a restart.
    const [row] = await t.store.db.selectFrom("pushKeys").selectAll().execute();
    expect(row!.privateKey).not.toMatch(/^[A-Za-z0-9_-]{43}$/);
    const reopened = await t.reopen();
    expect((await reopened.inject({ method: "GET", url: "/api/push", headers: { cookie } })).json().publicKey).toBe(status.publicKey);
    await reopened.close();

    const phone = receiver.subscription("phone");
    expect((await api("POST", "/api/push/subscriptions", phone)).statusCode).toBe(201);
    expect((await api("POST", "/api/push/subscriptions", { endpoint: phone.endpoint })).json()).toEqual({
      error: PUSH_TEXTS.subscriptionInvalid,
      code: "validation_error",
    });
    expect((await api("GET", "/api/push")).json().devices).toBe(1);

    // A reminder at its due time, once.
    await api("POST", "/api/reminders", {
      title: "Call the auditor",
      dueDate: "2026-11-27T07:59:00.000Z",
      priority: "high",
      type: "reminder",
      status: "unread",
    });
    await api("POST", "/api/reminders", { title: "Later", dueDate: "2026-11-27T09:00:00.000Z", priority: "low", type: "reminder", status: "unread" });
    await t.push.pushDueReminders();
    await t.push.pushDueReminders();
    expect(receiver.received.map((push) => JSON.parse(push.payload))).toEqual([
      { kind: "reminders", title: "Call the auditor", body: "Your reminder is due.", url: "/conversations" },
    ]);
    expect(receiver.received[0]).toMatchObject({ path: "/push/phone", vapidPublicKey: status.publicKey, claims: { sub: "mailto:sage@localhost" } });

    // A finished scheduled run.
    const schedule = (
      await api("POST", "/api/schedules", {
        title: "Markets",
        prompt: "Brief me",
        rrule: "DTSTART;TZID=UTC:20261127T080100\nRRULE:FREQ=DAILY",
        timezone: "UTC",
      })
    ).json();
    gemini.script({ text: "Markets are calm." });
    clock = new Date("2026-11-27T08:01:05Z");
    await t.schedules.tick();
    await t.schedules.idle();
    await t.push.idle();
    const conversationId = (await api("GET", `/api/schedules/${schedule.id}/runs`)).json()[0].conversationId;
    expect(JSON.parse(receiver.received.at(-1)!.payload)).toEqual({
      kind: "runs",
      title: "Markets",
      body: "SAGE finished this scheduled task.",
      url: `/conversations/${conversationId}`,
    });

    // Runs switched off: Run now pushes nothing.
    expect((await api("PUT", "/api/push/settings", { reminders: true, runs: false, approvals: true })).json()).toEqual({
      reminders: true,
      runs: false,
      approvals: true,
    });
    gemini.script({ text: "Still calm." });
    await api("POST", `/api/schedules/${schedule.id}/run`);
    await t.schedules.idle();
    await t.push.idle();
    expect(receiver.received).toHaveLength(2);

    // The push service says the device is gone: it is dropped.
    receiver.answer("/push/phone", 410);
    await api("POST", "/api/reminders", { title: "Sign the lease", dueDate: "2026-11-27T08:00:00.000Z", priority: "high", type: "reminder", status: "unread" });
    await t.push.pushDueReminders();
    expect((await api("GET", "/api/push")).json().devices).toBe(0);
  });

  it("pushes a whole-day reminder at 08:00 in the user's time zone, signed with the contact the operator set", async () => {
    let clock = new Date("2026-11-28T08:30:00Z");
    t = await createTestApp({
      env: {
        GEMINI_API_KEY: "push-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
        SAGE_FETCH_ALLOW_PRIVATE: "true",
        SAGE_PUSH_CONTACT: "mailto:it@example.com",
      },
      now: () => clock,
    });
    const cookie = await t.login();
    const api = (method: "POST" | "PUT", url: string, payload: object) => t.app.inject({ method, url, headers: { cookie }, payload });
    expect((await api("PUT", "/api/calendar/time-zone", { timeZone: "America/New_York" })).statusCode).toBe(200);
    expect((await api("POST", "/api/push/subscriptions", receiver.subscription("laptop"))).statusCode).toBe(201);
    await api("POST", "/api/reminders", { title: "Board pack", dueDate: "2026-11-28", priority: "high", type: "reminder", status: "unread" });
    const before = receiver.received.length;

    // 08:30 UTC is 03:30 in New York: too early for a whole-day reminder.
    await t.push.pushDueReminders();
    expect(receiver.received).toHaveLength(before);

    clock = new Date("2026-11-28T13:00:30Z"); // 08:00:30 in New York (EST, UTC-5)
    await t.push.pushDueReminders();
    const pushed = receiver.received.slice(before);
    expect(pushed.map((push) => JSON.parse(push.payload).title)).toEqual(["Board pack"]);
    expect(pushed[0]).toMatchObject({ path: "/push/laptop", claims: { sub: "mailto:it@example.com" } });
  });

  it("posts only to public https push services unless private addresses are allowed", () => {
    expect(pushEndpointAllowed("https://fcm.googleapis.com/fcm/send/abc", false)).toBe(true);
    for (const endpoint of [
      "http://fcm.googleapis.com/x",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://localhost/x",
      "https://user:pw@push.example.com/x",
      "not a url",
    ])
      expect(pushEndpointAllowed(endpoint, false), endpoint).toBe(false);
    expect(pushEndpointAllowed("http://127.0.0.1:9/x", true)).toBe(true);
  });
});
