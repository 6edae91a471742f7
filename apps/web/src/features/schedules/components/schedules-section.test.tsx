import { BRIEFING_TEXTS, WEEKLY_REVIEW_TEXTS, type Briefing, type Schedule, type ScheduleRun, type WeeklyReview } from "@sage/contracts/schedules";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { SchedulesSection } from "./schedules-section";

const at = "2026-11-27T08:00:00.000Z";
const brief: Schedule = {
  id: 4,
  title: "Morning brief",
  prompt: "Brief me on the markets",
  rrule: "DTSTART;TZID=Europe/Zurich:20261127T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
  timezone: "Europe/Zurich",
  conversationId: 9,
  paused: false,
  nextRunAt: "2026-11-30T06:00:00.000Z",
  nextRuns: ["2026-11-30T06:00:00.000Z", "2026-12-01T06:00:00.000Z", "2026-12-02T06:00:00.000Z"],
  summary: "every weekday at 07:00 (Europe/Zurich)",
  lastRunAt: "2026-11-27T06:00:02.000Z",
  lastStatus: "waiting-approval",
  template: null,
  trigger: { kind: "time" },
  createdAt: at,
  updatedAt: at,
};
const lateRun: ScheduleRun = {
  id: 11,
  scheduleId: 4,
  dueAt: "2026-11-27T06:00:00.000Z",
  startedAt: "2026-11-27T06:00:02.000Z",
  finishedAt: null,
  status: "waiting-approval",
  late: true,
  manual: false,
  conversationId: 9,
  messageIds: [],
  error: null,
};

const briefingOff: Briefing = {
  enabled: false,
  time: "07:00",
  days: "weekdays",
  timezone: "Europe/Zurich",
  topics: [],
  scheduleId: null,
  conversationId: null,
  nextRunAt: null,
};

const reviewOff: WeeklyReview = {
  enabled: false,
  day: "friday",
  time: "16:00",
  timezone: "Europe/Zurich",
  scheduleId: null,
  conversationId: null,
  nextRunAt: null,
};

describe("Settings > Schedules", () => {
  it("lists each schedule in plain words with its next run, its last run's status, and a history linking to the conversation", async () => {
    const api = fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([brief]))
      .on("GET", "/api/schedules/4/runs", Response.json([lateRun]))
      .on("PATCH", "/api/schedules/4", Response.json({ ...brief, paused: true, nextRunAt: null }))
      .on("POST", "/api/schedules/4/run", Response.json({ ...lateRun, id: 12, manual: true, late: false, status: "running" }, { status: 202 }));
    renderWithProviders(<SchedulesSection />);
    const row = await screen.findByRole("listitem", { name: "Morning brief" });
    expect(within(row).getByText("every weekday at 07:00 (Europe/Zurich)")).toBeTruthy();
    expect(within(row).getByText("Next run: Mon, 30 Nov 2026, 07:00")).toBeTruthy();
    expect(within(row).getByText("Last run: Fri, 27 Nov 2026, 07:00, Waiting for your approval")).toBeTruthy();

    await userEvent.click(within(row).getByRole("button", { name: "History" }));
    const history = await screen.findByRole("list", { name: "Runs of Morning brief" });
    expect(within(history).getByText("(late: SAGE was off at its time)")).toBeTruthy();
    expect(within(history).getByRole("link", { name: "Open conversation" }).getAttribute("href")).toBe("/conversations/9");

    await userEvent.click(within(row).getByRole("button", { name: "Pause Morning brief" }));
    await waitFor(() => expect(api.requests("PATCH", "/api/schedules/4").map((request) => request.body)).toEqual([{ paused: true }]));
    await userEvent.click(within(row).getByRole("button", { name: "Run now: Morning brief" }));
    await waitFor(() => expect(api.requests("POST", "/api/schedules/4/run")).toHaveLength(1));
  });

  it("says which mail a schedule's task came from, and nothing on the user's own (issue 47)", async () => {
    const fromMail: Schedule = { ...brief, id: 5, title: "Morning notes", derivedFrom: { title: "the mail from numbers@partner.example of 3 Dec" } };
    fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([brief, fromMail]));
    renderWithProviders(<SchedulesSection />);
    const marked = await screen.findByRole("listitem", { name: "Morning notes" });
    expect(within(marked).getByTestId("schedule-from").textContent).toBe("Its task comes from the mail from numbers@partner.example of 3 Dec.");
    expect(within(screen.getByRole("listitem", { name: "Morning brief" })).queryByTestId("schedule-from")).toBeNull();
  });

  it("creates a weekly schedule from the readable recurrence picker, in the chosen time zone", async () => {
    const api = fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([]))
      .on("POST", "/api/schedules", Response.json(brief, { status: 201 }));
    renderWithProviders(<SchedulesSection />);
    expect(await screen.findByText("No schedules yet.")).toBeTruthy();
    const form = screen.getByRole("form", { name: "New schedule" });
    await userEvent.type(within(form).getByLabelText("Title"), "Board prep");
    await userEvent.type(within(form).getByLabelText("What SAGE should do"), "List what the board will ask");
    await userEvent.selectOptions(within(form).getByLabelText("Repeat"), "weekly");
    await userEvent.click(within(form).getByLabelText("Thursday"));
    await userEvent.click(within(form).getByLabelText("Monday")); // on by default: now off
    await userEvent.selectOptions(within(form).getByLabelText("Time zone"), "America/New_York");
    await userEvent.click(within(form).getByRole("button", { name: "Add schedule" }));
    await waitFor(() => expect(api.requests("POST", "/api/schedules")).toHaveLength(1));
    const body = api.requests("POST", "/api/schedules")[0]!.body as Record<string, string>;
    expect(body).toMatchObject({ title: "Board prep", prompt: "List what the board will ask", timezone: "America/New_York" });
    expect(body.rrule).toMatch(/^DTSTART;TZID=America\/New_York:\d{8}T070000\nRRULE:FREQ=WEEKLY;BYDAY=TH$/);
  });

  it("switches the morning briefing on at a time, with news topics", async () => {
    const on: Briefing = {
      ...briefingOff,
      enabled: true,
      time: "06:30",
      topics: ["AI chips", "Swiss franc"],
      scheduleId: 8,
      nextRunAt: "2026-11-30T05:30:00.000Z",
    };
    const api = fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([]))
      .on("PUT", "/api/schedules/briefing", () => {
        api.on("GET", "/api/schedules/briefing", Response.json(on));
        return Response.json(on);
      });
    renderWithProviders(<SchedulesSection />);
    const form = await screen.findByRole("form", { name: BRIEFING_TEXTS.title });
    await userEvent.click(within(form).getByLabelText("Send me the morning briefing"));
    const time = within(form).getByLabelText("At");
    await userEvent.clear(time);
    await userEvent.type(time, "06:30");
    await userEvent.type(within(form).getByLabelText(/News topics/), "AI chips, Swiss franc");
    await userEvent.click(within(form).getByRole("button", { name: "Save briefing" }));
    await waitFor(() => expect(api.requests("PUT", "/api/schedules/briefing")).toHaveLength(1));
    expect(api.requests("PUT", "/api/schedules/briefing")[0]!.body).toMatchObject({
      enabled: true,
      time: "06:30",
      days: "weekdays",
      topics: ["AI chips", "Swiss franc"],
    });
    expect(await screen.findByText("Next briefing: Mon, 30 Nov 2026, 06:30")).toBeTruthy();
  });

  it("creates a schedule that runs when a mail arrives, and shows a web-address schedule's secret address once", async () => {
    const onMail: Schedule = { ...brief, id: 6, title: "Invoices", rrule: "", nextRunAt: null, nextRuns: [], trigger: { kind: "mail", match: "invoice" } };
    const onCall: Schedule = { ...brief, id: 7, title: "Deploys", rrule: "", nextRunAt: null, nextRuns: [], trigger: { kind: "webhook" } };
    const api = fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([]))
      .on("POST", "/api/schedules", Response.json(onMail, { status: 201 }));
    renderWithProviders(<SchedulesSection />);
    const form = await screen.findByRole("form", { name: "New schedule" });
    await userEvent.type(within(form).getByLabelText("Title"), "Invoices");
    await userEvent.type(within(form).getByLabelText("What SAGE should do"), "File the invoice and tell me the amount");
    await userEvent.selectOptions(within(form).getByLabelText("Runs"), "When a mail arrives");
    // Set times' controls give way to the words to look for.
    expect(within(form).queryByLabelText("Repeat")).toBeNull();
    await userEvent.type(within(form).getByLabelText("Mails that mention"), "invoice");
    await userEvent.click(within(form).getByRole("button", { name: "Add schedule" }));
    await waitFor(() => expect(api.requests("POST", "/api/schedules")).toHaveLength(1));
    expect(api.requests("POST", "/api/schedules")[0]!.body).toEqual({
      title: "Invoices",
      prompt: "File the invoice and tell me the amount",
      trigger: { kind: "mail", match: "invoice" },
    });

    api.on("POST", "/api/schedules", Response.json({ ...onCall, webhookUrl: "/api/hooks/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG" }, { status: 201 }));
    await userEvent.type(within(form).getByLabelText("Title"), "Deploys");
    await userEvent.type(within(form).getByLabelText("What SAGE should do"), "Tell me what the deploy reported");
    await userEvent.selectOptions(within(form).getByLabelText("Runs"), "When another service calls its web address");
    await userEvent.click(within(form).getByRole("button", { name: "Add schedule" }));
    const address = (await within(form).findByLabelText("Secret web address")) as HTMLInputElement;
    expect(address.value).toBe(`${window.location.origin}/api/hooks/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG`);
    expect(api.requests("POST", "/api/schedules")[1]!.body).toEqual({
      title: "Deploys",
      prompt: "Tell me what the deploy reported",
      trigger: { kind: "webhook" },
    });
  });

  it("switches the weekly review on, Friday 16:00 unless changed", async () => {
    const on: WeeklyReview = { ...reviewOff, enabled: true, day: "thursday", scheduleId: 9, nextRunAt: "2026-12-03T15:00:00.000Z" };
    const api = fakeApi()
      .on("GET", "/api/schedules/briefing", Response.json(briefingOff))
      .on("GET", "/api/schedules/weekly-review", Response.json(reviewOff))
      .on("GET", "/api/schedules", Response.json([]))
      .on("PUT", "/api/schedules/weekly-review", () => {
        api.on("GET", "/api/schedules/weekly-review", Response.json(on));
        return Response.json(on);
      });
    renderWithProviders(<SchedulesSection />);
    const form = await screen.findByRole("form", { name: WEEKLY_REVIEW_TEXTS.title });
    expect((within(form).getByLabelText("At") as HTMLInputElement).value).toBe("16:00");
    expect((within(form).getByLabelText("On") as HTMLSelectElement).value).toBe("friday");
    await userEvent.click(within(form).getByLabelText("Send me the weekly review"));
    await userEvent.selectOptions(within(form).getByLabelText("On"), "Thursday");
    await userEvent.click(within(form).getByRole("button", { name: "Save weekly review" }));
    await waitFor(() => expect(api.requests("PUT", "/api/schedules/weekly-review")).toHaveLength(1));
    expect(api.requests("PUT", "/api/schedules/weekly-review")[0]!.body).toMatchObject({ enabled: true, day: "thursday", time: "16:00" });
    expect(await screen.findByText("Next review: Thu, 3 Dec 2026, 16:00")).toBeTruthy();
  });
});
