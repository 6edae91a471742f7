import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { TODAY_TEXTS, TodayPanel } from "./today-panel";

// 10:00 local time on a Friday; the panel asks for today and tomorrow.
const NOW = new Date(2026, 10, 27, 10, 0);
const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute).toISOString();
const EVENTS = /^\/api\/calendar\/events\?from=/;
const reminder = (id: number, title: string, dueDate: string) => ({
  id,
  title,
  description: "",
  dueDate,
  priority: "medium",
  type: "reminder",
  status: "unread",
  conversationId: null,
  createdAt: "2026-11-20T08:00:00.000Z",
  updatedAt: "2026-11-20T08:00:00.000Z",
});
const DOSSIERS = /^\/api\/dossiers\?eventId=/;
const noDossier = () => Response.json({ error: "No dossier has been prepared for this event yet", code: "dossier_not_found" }, { status: 404 });
const dossier = (eventId: number, conversationId: number) => ({ eventId, preparedAt: at(27, 9, 30), lines: [], conversationId });
const event = (id: number, title: string, start: string, end: string, location = "") => ({ id, title, start, end, allDay: false, location, calendar: "Work" });

describe("TodayPanel", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it("lists the meetings still to come (one under way), tomorrow's labelled, and the reminders due today", async () => {
    const api = fakeApi()
      .on(
        "GET",
        EVENTS,
        Response.json({
          connected: true,
          events: [
            event(1, "Breakfast with Anna", at(27, 7, 30), at(27, 8, 30)),
            event(2, "Budget review", at(27, 9, 30), at(27, 10, 30), "Room 4"),
            event(3, "Board call", at(27, 15), at(27, 16)),
            event(4, "Flight to Oslo", at(28, 7, 40), at(28, 9)),
          ],
        }),
      )
      .on(
        "GET",
        "/api/reminders",
        Response.json([reminder(1, "Sign the lease", "2026-11-27"), reminder(2, "Call the bank", at(27, 16)), reminder(3, "Renew passport", "2026-12-15")]),
      )
      .on("GET", "/api/triage?label=needs-reply", Response.json([]))
      .on("GET", DOSSIERS, noDossier());
    renderWithProviders(<TodayPanel />);
    const panel = await screen.findByTestId("today-panel");
    expect(within(panel).getByRole("heading", { level: 2 }).textContent).toBe("Today, Friday 27 November");
    const meetings = () => within(within(panel).getByRole("region", { name: "Next meetings" })).getAllByRole("listitem");
    await vi.waitFor(() =>
      expect(meetings().map((item) => item.textContent)).toEqual([
        "Now, until 10:30Budget review · Room 4Prepare now",
        "15:00Board callPrepare now",
        "Tomorrow 07:40Flight to OsloPrepare now",
      ]),
    );
    const due = within(panel).getByRole("region", { name: "Reminders due today (2)" });
    expect(
      within(due)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(expect.arrayContaining(["Sign the lease", "16:00 Call the bank"]));
    const [request] = api.requests("GET", EVENTS);
    const query = new URLSearchParams(request!.path.split("?")[1]);
    expect(query.get("from")).toBe(new Date(2026, 10, 27).toISOString());
    expect(query.get("to")).toBe(new Date(2026, 10, 29).toISOString());
  });

  it("links a meeting's dossier, and Prepare now writes one for a meeting without", async () => {
    const api = fakeApi()
      .on(
        "GET",
        EVENTS,
        Response.json({ connected: true, events: [event(2, "Budget review", at(27, 11), at(27, 12)), event(3, "Board call", at(27, 15), at(27, 16))] }),
      )
      .on("GET", "/api/triage?label=needs-reply", Response.json([]))
      .on("GET", "/api/reminders", Response.json([]))
      .on("GET", DOSSIERS, (request) => (request.path.endsWith("=2") ? Response.json(dossier(2, 5)) : noDossier()))
      .on("POST", "/api/dossiers", Response.json(dossier(3, 9)));
    renderWithProviders(<TodayPanel />);
    const link = await screen.findByRole("link", { name: "Dossier for Budget review" });
    expect(link.getAttribute("href")).toBe("/conversations/5");
    fireEvent.click(await screen.findByRole("button", { name: "Prepare now a dossier for Board call" }));
    expect((await screen.findByRole("link", { name: "Dossier for Board call" })).getAttribute("href")).toBe("/conversations/9");
    expect(api.requests("POST", "/api/dossiers").map((request) => request.body)).toEqual([{ eventId: 3 }]);
  });

  it("offers Add notes on a meeting that ended today, and files the typed notes under the event", async () => {
    const api = fakeApi()
      .on(
        "GET",
        EVENTS,
        Response.json({
          connected: true,
          events: [event(1, "Breakfast with Anna", at(27, 7, 30), at(27, 8, 30)), event(3, "Board call", at(27, 15), at(27, 16))],
        }),
      )
      .on("GET", "/api/triage?label=needs-reply", Response.json([]))
      .on("GET", "/api/reminders", Response.json([]))
      .on("GET", DOSSIERS, noDossier())
      .on("POST", "/api/dossiers/notes", Response.json({ eventId: 1, fileId: 44, name: "Notes: Breakfast with Anna, 27 Nov" }));
    renderWithProviders(<TodayPanel />);
    const earlier = await screen.findByRole("region", { name: "Earlier today" });
    expect(within(earlier).getByRole("listitem").textContent).toBe("07:30–08:30Breakfast with AnnaAdd notes");
    fireEvent.click(within(earlier).getByRole("button", { name: "Add notes for Breakfast with Anna" }));
    const dialog = await screen.findByRole("dialog", { name: "Notes of Breakfast with Anna" });
    const save = within(dialog).getByRole("button", { name: "Save notes" });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("Notes"), { target: { value: "Anna sends the hiring plan by Tuesday." } });
    fireEvent.click(save);
    expect(await within(earlier).findByRole("button", { name: "Add notes for Breakfast with Anna" })).toHaveProperty("textContent", "Notes saved");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.requests("POST", "/api/dossiers/notes").map((request) => request.body)).toEqual([
      { eventId: 1, text: "Anna sends the hiring plan by Tuesday." },
    ]);
    // The meeting still to come keeps its dossier button, not Add notes.
    expect(screen.getByRole("button", { name: "Prepare now a dossier for Board call" })).toBeTruthy();
  });

  it("lists the mail that needs a reply, oldest first, with its age, why, and the draft waiting", async () => {
    fakeApi()
      .on("GET", EVENTS, Response.json({ connected: true, events: [] }))
      .on("GET", "/api/reminders", Response.json([]))
      .on(
        "GET",
        "/api/triage?label=needs-reply",
        Response.json([
          {
            messageId: 7,
            from: "Anna Berg <anna@acme.example>",
            subject: "Q3 budget numbers",
            date: at(25, 10),
            label: "needs-reply",
            urgent: true,
            reason: "Anna asks for your Q3 numbers.",
            urgentReason: 'Your rule: "Anything from Acme is urgent"',
            decidedBy: "model",
            draft: { folder: "Drafts", subject: "Re: Q3 budget numbers", account: "Work mail", preparedAt: at(25, 11) },
          },
        ]),
      );
    renderWithProviders(<TodayPanel />);
    const region = await screen.findByRole("region", { name: "Needs your reply (1)" });
    expect(within(region).getByRole("listitem").textContent).toBe(
      "Anna Berg · Q3 budget numbers · 2 days · UrgentAnna asks for your Q3 numbers. Draft reply in Drafts.",
    );
  });

  it("says so in plain words when the calendar is empty and nothing is due", async () => {
    fakeApi()
      .on("GET", EVENTS, Response.json({ connected: true, events: [] }))
      .on("GET", "/api/triage?label=needs-reply", Response.json([]))
      .on("GET", "/api/reminders", Response.json([]));
    renderWithProviders(<TodayPanel />);
    const panel = await screen.findByTestId("today-panel");
    expect(panel.textContent).toContain(TODAY_TEXTS.noMeetings);
    expect(panel.textContent).toContain(TODAY_TEXTS.noReminders);
  });

  it("is not shown without a calendar and with nothing due; with a reminder due, it invites connecting a calendar", async () => {
    const api = fakeApi()
      .on("GET", EVENTS, Response.json({ connected: false, events: [] }))
      .on("GET", "/api/triage?label=needs-reply", Response.json([]))
      .on("GET", "/api/reminders", Response.json([]));
    const { unmount, queryClient } = renderWithProviders(<TodayPanel />);
    await vi.waitFor(() => expect(api.requests("GET", "/api/reminders")).toHaveLength(1));
    // Every answer is in and rendered: only then does "not shown" mean anything.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByTestId("today-panel")).toBeNull();
    unmount();

    api.on("GET", "/api/triage?label=needs-reply", Response.json([])).on("GET", "/api/reminders", Response.json([reminder(1, "Sign the lease", "2026-11-27")]));
    renderWithProviders(<TodayPanel />);
    const panel = await screen.findByTestId("today-panel");
    expect(within(panel).getByRole("link", { name: TODAY_TEXTS.noCalendar }).getAttribute("href")).toBe("/settings");
  });
});
