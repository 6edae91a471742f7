import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { seedAccount } from "../../test/seed-account.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  gemini.reset();
  t = await createTestApp({ env: { GEMINI_API_KEY: "triage-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" } });
  cookie = await t.login();
});
afterEach(async () => t.close());

const api = (method: "GET" | "PUT", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const structured = () => gemini.requests.filter((request) => request.body?.generationConfig?.responseSchema).length;

/** One synced mail in the INBOX (headers only: a mail too large to fetch is sorted on them). */
async function syncedMail() {
  const at = new Date().toISOString();
  const account = await seedAccount(t, "mail", { at });
  await t.store.db
    .insertInto("mailMessages")
    .values({
      accountId: account.id,
      userId: 3,
      folder: "INBOX",
      uid: 1,
      messageId: null,
      subject: "Board pack",
      fromAddress: "Anna <anna@example.com>",
      toAddress: "me@example.com",
      date: at,
      itemId: null,
    })
    .execute();
}

// Decision 107: sorting became on by default (decision 095, amended) after some users had a stored setting that says
// off. SAGE cannot tell an explicit "off" from the old default, and sorting sends every mail to the model: it stays off
// until the user turns it on.
describe("a stored 'sorting off' from before sorting was on by default", () => {
  it("keeps sorting off, shown as off, until the user turns it on", async () => {
    await syncedMail();
    // The row the earlier code left when the user saved rules (the table's default then: enabled = 0).
    await t.store.db
      .insertInto("triageSettings")
      .values({ userId: 3, enabled: 0, rules: JSON.stringify(["Anything from Acme is urgent"]), updatedAt: "2026-12-06T15:00:00.000Z" })
      .execute();
    gemini.script({ json: { label: "fyi", reason: "A colleague's update.", urgent: false, urgentReason: null, sentToMany: false, fromMachine: false } });

    expect((await api("GET", "/api/triage/settings")).json()).toMatchObject({ enabled: false, modelAvailable: true });
    expect(await t.triage.round(3)).toBe(0);
    // Saving rules again is not turning sorting on.
    expect((await api("PUT", "/api/triage/rules", { rules: ["Anything from Acme is urgent", "Newsletters never need a reply"] })).statusCode).toBe(200);
    expect(await t.triage.round(3)).toBe(0);
    expect(structured()).toBe(0);
    expect((await api("GET", "/api/triage")).json()).toEqual([]);

    expect((await api("PUT", "/api/triage/settings", { enabled: true })).json()).toMatchObject({ enabled: true });
    // Turning it on sorts what is waiting.
    await t.jobs.idle();
    expect(structured()).toBe(1);
    expect((await api("GET", "/api/triage")).json()).toMatchObject([{ subject: "Board pack", label: "fyi" }]);
  });

  it("is on for a user who never saved a setting, and stays on when they first save their rules", async () => {
    await syncedMail();
    gemini.script({ json: { label: "fyi", reason: "A colleague's update.", urgent: false, urgentReason: null, sentToMany: false, fromMachine: false } });
    expect((await api("PUT", "/api/triage/rules", { rules: ["Newsletters never need a reply"] })).statusCode).toBe(200);
    expect((await api("GET", "/api/triage/settings")).json()).toMatchObject({ enabled: true });
    expect(await t.triage.round(3)).toBe(1);
    expect((await api("GET", "/api/triage")).json()).toMatchObject([{ subject: "Board pack", label: "fyi" }]);
  });
});
