import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { seedAccount } from "../../test/seed-account.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
const clock = new Date("2026-11-24T09:00:00Z");
afterEach(async () => {
  gemini.reset();
  await t?.close();
});

// Issue 53: "Add notes" files what the user typed after a meeting as a note of the event, "and the commitments scan
// reads them".
describe("notes added after a meeting", () => {
  it("are read by the commitments scan: what was promised in them is in the ledger, quoted from the notes", async () => {
    t = await createTestApp({ env: { GEMINI_API_KEY: "notes-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" }, now: () => clock });
    const cookie = await t.login();
    const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const at = clock.toISOString();
    const calendar = await seedAccount(t, "calendar", { at });
    const object = await t.store.db
      .insertInto("calendarObjects")
      .values({ accountId: calendar.id, href: "review.ics", ics: "BEGIN:VCALENDAR" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const event = await t.store.db
      .insertInto("calendarEvents")
      .values({
        accountId: calendar.id,
        userId: 3,
        objectId: object.id,
        uid: "review@test",
        title: "Budget review",
        location: "",
        startAt: "2026-11-23T09:00:00.000Z",
        endAt: "2026-11-23T10:00:00.000Z",
        allDay: 0,
        timeZone: "",
        attendees: JSON.stringify(["me@example.com", "anna@acme.example"]),
        busy: 1,
        description: "",
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    const said = "Went through the budget. Anna will send the hiring plan by Friday.";
    const notes = await api("POST", "/api/dossiers/notes", { eventId: event.id, text: said });
    expect(notes.statusCode, notes.body).toBe(200);
    const fileId = notes.json().fileId as number;
    await t.jobs.idle();

    gemini.script({
      match: "Anna will send the hiring plan",
      json: {
        commitments: [
          {
            kind: "promise",
            direction: "owed-to-me",
            owner: "Anna",
            counterparty: "me",
            what: "Send the hiring plan",
            dueDate: "2026-11-27",
            quote: "Anna will send the hiring plan by Friday.",
          },
        ],
      },
    });
    await t.commitments.extractNow(3);

    const asked = gemini.requests.filter((request) => request.body?.generationConfig?.responseSchema);
    expect(asked.some((request) => JSON.stringify(request.body.contents).includes("Anna will send the hiring plan by Friday."))).toBe(true);
    const ledger = (await api("GET", "/api/commitments?show=owed-to-me")).json();
    expect(ledger.commitments).toMatchObject([
      {
        what: "Send the hiring plan",
        owner: "Anna",
        dueDate: "2026-11-27",
        quote: "Anna will send the hiring plan by Friday.",
        source: { kind: "note", itemId: fileId, title: "Notes: Budget review, 23 Nov" },
      },
    ]);
  });
});
