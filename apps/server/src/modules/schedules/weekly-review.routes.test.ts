import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { WEEKLY_REVIEW_TEXTS } from "@sage/contracts/schedules";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { seedAccount } from "../../test/seed-account.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
let clock: Date;
afterEach(async () => {
  gemini.reset();
  await t?.schedules.idle();
  await t?.close();
});

async function start(at: string) {
  clock = new Date(at);
  t = await createTestApp({ env: { GEMINI_API_KEY: "review-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" }, now: () => clock });
  cookie = await t.login();
}
const api = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const settings = { enabled: true, day: "friday", time: "16:00", timezone: "Europe/Zurich" };

function commitment(
  what: string,
  itemId: number,
  fields: { direction: "mine" | "owed-to-me"; owner: string; counterparty: string; dueDate: string; createdAt: string },
) {
  return {
    userId: 3,
    kind: "promise" as const,
    what,
    quote: `${what}.`,
    sourceKind: "note" as const,
    itemId,
    page: null,
    conversationId: null,
    messageId: null,
    sourceTitle: "Notes",
    sourceDate: fields.createdAt,
    reminderId: null,
    updatedAt: fields.createdAt,
    ...fields,
  };
}

describe("the weekly review", () => {
  it("is a template beside the briefing, Friday 16:00 by default, and writes the week's review cited line by line", async () => {
    await start("2026-11-27T14:59:00Z"); // Friday 15:59 in Zurich
    expect((await api("GET", "/api/schedules/weekly-review")).json()).toEqual({
      enabled: false,
      day: "friday",
      time: "16:00",
      timezone: expect.any(String),
      scheduleId: null,
      conversationId: null,
      nextRunAt: null,
    });
    const saved = await api("PUT", "/api/schedules/weekly-review", settings);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ enabled: true, day: "friday", time: "16:00", nextRunAt: "2026-11-27T15:00:00.000Z" });
    expect((await api("GET", "/api/schedules")).json()).toMatchObject([
      { title: WEEKLY_REVIEW_TEXTS.title, template: "weekly-review", summary: "every Friday at 16:00 (Europe/Zurich)" },
    ]);
    const bad = await api("PUT", "/api/schedules/weekly-review", { ...settings, day: "someday" });
    expect([bad.statusCode, bad.json().error]).toEqual([400, WEEKLY_REVIEW_TEXTS.dayInvalid]);

    const db = t.store.db;
    const at = clock.toISOString();
    const calendar = await seedAccount(t, "calendar", { at });
    const event = async (title: string, startAt: string, attendees: string[]) => {
      const object = await db
        .insertInto("calendarObjects")
        .values({ accountId: calendar.id, href: title, ics: "BEGIN:VCALENDAR" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const row = await db
        .insertInto("calendarEvents")
        .values({
          accountId: calendar.id,
          userId: 3,
          objectId: object.id,
          uid: `${title}@test`,
          title,
          location: "",
          startAt,
          endAt: new Date(new Date(startAt).getTime() + 3_600_000).toISOString(),
          allDay: 0,
          timeZone: "",
          attendees: JSON.stringify(attendees),
          busy: 1,
          description: "",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    };
    await event("Last week's sync", "2026-11-20T09:00:00.000Z", ["dan@acme.example"]);
    const review = await event("Q3 review", "2026-11-23T09:00:00.000Z", ["anna@acme.example"]);
    await event("Offsite planning", "2026-11-26T13:00:00.000Z", ["carla@acme.example"]);
    await event("Board meeting", "2026-12-01T10:00:00.000Z", ["board@acme.example"]);
    await event("Focus time", "2026-12-02T08:00:00.000Z", []);
    await event("The week after", "2026-12-08T10:00:00.000Z", ["dan@acme.example"]);
    const notes = await api("POST", "/api/dossiers/notes", {
      eventId: review,
      text: "Went through the budget.\nDecision: freeze hiring until March\nAgreed: Anna owns the Q3 deck",
    });
    expect(notes.statusCode, notes.body).toBe(200);
    await t.jobs.idle();
    await db
      .insertInto("commitments")
      .values([
        commitment("Send the deck", notes.json().fileId, {
          direction: "mine",
          owner: "me",
          counterparty: "Anna",
          dueDate: "2026-11-30",
          createdAt: "2026-11-25T10:00:00.000Z",
        }),
        commitment("Share the plan", notes.json().fileId, {
          direction: "owed-to-me",
          owner: "Carla",
          counterparty: "me",
          dueDate: "2026-11-20",
          createdAt: "2026-11-10T10:00:00.000Z",
        }),
      ])
      .execute();

    gemini.script({ text: "Prepare the board meeting on Tuesday; Carla's plan is a week late." });
    clock = new Date("2026-11-27T15:00:05Z");
    await t.schedules.tick();
    await t.schedules.idle();

    const { scheduleId, conversationId } = (await api("GET", "/api/schedules/weekly-review")).json();
    expect((await api("GET", `/api/schedules/${scheduleId}/runs`)).json()[0]).toMatchObject({ status: "succeeded", late: false });
    const messages = (await api("GET", `/api/conversations/${conversationId}/messages`)).json();
    expect(messages).toHaveLength(1);
    expect(messages[0].content).toBe(
      [
        "## Weekly review",
        "",
        "Prepare the board meeting on Tuesday; Carla's plan is a week late.",
        "",
        `### ${WEEKLY_REVIEW_TEXTS.held}`,
        "- Mon 10:00 Q3 review, with anna@acme.example [1]",
        "- Thu 14:00 Offsite planning, with carla@acme.example [2]",
        "",
        `### ${WEEKLY_REVIEW_TEXTS.made}`,
        "- Decision (Q3 review): freeze hiring until March [3]",
        "- Decision (Q3 review): Anna owns the Q3 deck [4]",
        "- You owe Anna: Send the deck, due 2026-11-30 [5]",
        "",
        `### ${WEEKLY_REVIEW_TEXTS.open}`,
        "- Carla owes you: Share the plan, due 2026-11-20 [6]",
        "",
        `### ${WEEKLY_REVIEW_TEXTS.prepare}`,
        "- Tue 11:00 Board meeting, with board@acme.example [7]",
      ].join("\n"),
    );
    expect(messages[0].citations.map((citation: any) => [citation.n, citation.kind, citation.filename])).toEqual([
      [1, "event", "Q3 review"],
      [2, "event", "Offsite planning"],
      [3, "file", notes.json().name],
      [4, "file", notes.json().name],
      [5, "file", "Notes"],
      [6, "file", "Notes"],
      [7, "event", "Board meeting"],
    ]);
    expect(messages[0].citations[2]).toMatchObject({ fileId: notes.json().fileId, content: "freeze hiring until March" });
    // The model wrote only the opening sentence, from the assembled lines.
    const lead = gemini.requests.filter((request) => request.action === "generateContent").at(-1)!;
    expect(JSON.stringify(lead.body)).toContain("weekly review");
    expect(JSON.stringify(lead.body.contents)).toContain("Share the plan, due 2026-11-20");
  });

  it("says it was a quiet week when nothing is on file, without asking the model", async () => {
    await start("2026-11-27T08:00:00Z");
    const review = (await api("PUT", "/api/schedules/weekly-review", settings)).json();
    expect((await api("POST", `/api/schedules/${review.scheduleId}/run`)).statusCode).toBe(202);
    await t.schedules.idle();
    const { conversationId } = (await api("GET", "/api/schedules/weekly-review")).json();
    const [message] = (await api("GET", `/api/conversations/${conversationId}/messages`)).json();
    expect(message.content).toBe(
      ["## Weekly review", "", `**${WEEKLY_REVIEW_TEXTS.nothing}**`, "", `### ${WEEKLY_REVIEW_TEXTS.held}`, `_${WEEKLY_REVIEW_TEXTS.noCalendar}_`].join("\n"),
    );
    expect(gemini.requests.filter((request) => request.action === "generateContent" || request.action === "streamGenerateContent")).toHaveLength(0);
  });
});
