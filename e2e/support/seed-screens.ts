import { expect, type APIRequestContext } from "@playwright/test";
import { modelFailedText } from "@sage/contracts/chat-turn";
import { fakeGemini } from "./fake-gemini.ts";
import { serveIcsFeed } from "./ics-feed.ts";
import { TRUCK_SALES_PAGE, startLocalSite } from "./local-site.ts";

/** What the layout walk opens: a busy conversation and a system knowledge base with a folder. */
export interface SeededScreens {
  conversationId: number;
  /** A conversation with a document SAGE made (its draft opens in the canvas). */
  draftConversationId: number;
  conversationName: string;
  failedFileName: string;
  uploadName: string;
  scheduleTitle: string;
  folderName: string;
  noteName: string;
  /** A conversation whose answer is a research report: its steps above it, a chip for the page it read. */
  researchConversationId: number;
  /** A conversation whose answer is a failed model call: the error with its reason and Retry (issue 52 item 13). */
  failedAnswerConversationId: number;
}

/** The Today panel's meetings (issue 52 item 15), from an ICS subscription: long titles and places. */
export const SEEDED_MEETINGS = [
  { title: "Quarterly board review with the audit committee and the external auditors", location: "Zurich office, room Limmat", inHours: 1 },
  { title: "Call with Anna Keller about the Kestrel acquisition", location: "Phone", inHours: 2 },
  { title: "Investor dinner", location: "Baur au Lac", inHours: 3 },
];

export const LONG_CONVERSATION_NAME = "Q3 board review: revenue, the hiring plan and the product roadmap for the next two quarters";
export const FAILED_LINK_NAME = "quarterly-board-review-financial-statements-and-forecast-2025-final-version";

const day = (offsetDays: number, hours = 10) => {
  const date = new Date();
  date.setDate(date.getDate() + offsetDays);
  date.setHours(hours, 0, 0, 0);
  return date.toISOString();
};

/**
 * Later today, at least two hours ahead (tomorrow morning once today is nearly over): a reminder due at 23:00 fell
 * due during a walk run after 23:00, and its notification covered every screen.
 */
const laterToday = () => {
  const date = new Date(Date.now() + 3 * 3_600_000);
  if (date.getDate() !== new Date().getDate()) return day(1, 9);
  date.setMinutes(0, 0, 0);
  return date.toISOString();
};

async function post(request: APIRequestContext, url: string, data: Record<string, unknown>) {
  const response = await request.post(url, { data });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/**
 * Data that stresses layouts: long names, a failed link with its badge and Retry, reminders with descriptions in
 * every tab, notes, a file, a folder, and search results from a conversation beside system files.
 */
export async function seedScreens(request: APIRequestContext): Promise<SeededScreens> {
  const conversation = await post(request, "/api/conversations", { name: LONG_CONVERSATION_NAME });
  await post(request, "/api/conversations", { name: "" });
  await post(request, "/api/conversations", { name: "Hiring plan" });
  // A deleted conversation, for the Recently deleted dialog (its name long, as names are).
  const deleted = await post(request, "/api/conversations", { name: `Deleted: ${LONG_CONVERSATION_NAME}` });
  expect((await request.delete(`/api/conversations/${deleted.id as number}`)).status()).toBe(200);
  const id = conversation.id as number;

  await post(request, `/api/conversations/${id}/messages`, { role: "user", content: "Draft the agenda for the Q3 board review." });
  await post(request, `/api/conversations/${id}/messages`, {
    role: "model",
    content: [
      "Here is a draft agenda for the **Q3 board review**:",
      "",
      "1. Revenue against plan, with the regional breakdown",
      "2. Hiring plan for engineering and sales",
      "3. Product roadmap for the next two quarters",
      "",
      "| Item | Owner | Minutes |",
      "| --- | --- | --- |",
      "| Revenue | CFO | 20 |",
      "| Hiring | VP People | 15 |",
      "",
      "See https://example.com/board/q3/agenda-and-supporting-papers-for-the-quarterly-review for the papers.",
    ].join("\n"),
  });

  const reminders = [
    {
      title: "Send the board deck to every director before the Thursday review",
      description: "Include the revenue appendix and the hiring plan summary.",
      dueDate: laterToday(),
      priority: "high",
    },
    { title: "Confirm the venue", description: "", dueDate: day(-2), priority: "low" },
    {
      title: "Review the product roadmap with the leadership team",
      description: "Two quarters ahead, with the dependencies.",
      dueDate: day(3),
      priority: "medium",
    },
    { title: "Prepare the quarterly investor letter", description: "", dueDate: day(12), priority: "medium" },
  ];
  for (const reminder of reminders) await post(request, "/api/reminders", { ...reminder, conversationId: id });

  // A link that cannot be fetched: kept as a reference, marked Failed, with Retry.
  const failed = await request.post("/api/process_url", {
    data: { url: `http://127.0.0.1:9/${FAILED_LINK_NAME}`, conversationId: id, parentId: 0, description: "Board papers", name: FAILED_LINK_NAME },
  });
  expect(failed.status(), await failed.text()).toBeLessThan(600);
  await post(request, "/api/files", {
    name: "Board review talking points for the chair and the audit committee",
    type: "note",
    conversationId: id,
    parentId: 0,
    content: "Open with revenue against plan, then hiring, then the roadmap. Keep the board review to ninety minutes.",
    description: "Talking points",
  });
  const upload = await request.post("/api/upload", {
    multipart: {
      file: {
        name: "board-minutes.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("Minutes of the board review. Revenue grew eleven percent against plan."),
      },
      conversationId: String(id),
      parentId: "0",
      description: "Minutes",
    },
  });
  expect(upload.status(), await upload.text()).toBeLessThan(300);

  // A tool the assistant ran: a collapsed line in the chat with its input, result and Details (issue 33 items 8, 9).
  await fakeGemini.script(
    { functionCalls: [{ name: "searchDocuments", args: { query: "board minutes revenue against plan" } }] },
    { text: "The minutes say revenue grew eleven percent against plan." },
  );
  const turn = await request.post(`/api/conversations/${id}/turn`, { data: { content: "What do the minutes say about revenue?" } });
  expect(turn.status(), await turn.text()).toBe(200);
  // The answer regenerated: the chat shows its two versions as < 2/2 > (issue 32, decision 045); both ran the tool.
  const shown = (await (await request.get(`/api/conversations/${id}/messages`)).json()) as Array<{ id: number }>;
  await fakeGemini.script(
    { functionCalls: [{ name: "searchDocuments", args: { query: "board minutes revenue against plan" } }] },
    { text: "Per the minutes, revenue beat the plan by eleven percent." },
  );
  const again = await request.post(`/api/conversations/${id}/messages/${shown.at(-1)!.id}/regenerate`, { data: {} });
  expect(again.status(), await again.text()).toBe(200);

  // A document SAGE made, whose draft opens in the canvas (issue 32).
  const deck = await post(request, "/api/conversations", { name: "Quarterly board deck" });
  await fakeGemini.script(
    {
      functionCalls: [
        {
          name: "createDocument",
          args: {
            format: "docx",
            title: "Quarterly board review memo for the audit and remuneration committees",
            content: "# Board review\n\n## Revenue\n\n- Revenue grew eleven percent against plan\n\n## Hiring\n\n| Team | Hires |\n|---|---|\n| Sales | 4 |",
          },
        },
      ],
    },
    { text: "The memo is ready." },
  );
  const deckTurn = await request.post(`/api/conversations/${deck.id}/turn`, { data: { content: "Write the board memo" } });
  expect(deckTurn.status(), await deckTurn.text()).toBe(200);

  // A research report (decision 046): planned questions, two searches, a page read from a local site, and the report.
  const research = await post(request, "/api/conversations", { name: "Electric trucks for the fleet: market, charging and the business case" });
  const site = await startLocalSite({ "/sales": TRUCK_SALES_PAGE });
  try {
    await fakeGemini.script(
      // Named for the planner: the commitments round asks for JSON too (e2e/layout/screens.spec.ts).
      { json: { questions: ["electric truck registrations in Europe 2026", "depot charging for heavy electric trucks"] }, match: "You plan research" },
      { text: "Registrations doubled.", sources: [{ title: "Electric truck sales 2026", uri: `${site.origin}/sales` }] },
      { text: "Depot charging is the main constraint." },
      {
        text: [
          "## Summary",
          "",
          "Registrations of heavy electric trucks in Europe doubled in 2026, to 21,400 vehicles [1].",
          "",
          "## What to watch",
          "",
          "- Depot charging is the main constraint on orders [1].",
        ].join("\n"),
      },
    );
    const researched = await request.post(`/api/conversations/${research.id as number}/turn`, {
      data: { content: "Electric trucks for our fleet", research: true },
    });
    expect(researched.status(), await researched.text()).toBe(200);
  } finally {
    await site.close();
  }

  const scheduleTitle = "Weekday morning briefing on the board papers, the hiring plan and the investor letter";
  await post(request, "/api/schedules", {
    title: scheduleTitle,
    prompt: "Brief me on what the board needs from me today.",
    rrule: "DTSTART;TZID=Europe/Zurich:20261127T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    timezone: "Europe/Zurich",
    conversationId: id,
  });

  const folderName = "Board papers and quarterly reviews";
  const folder = await post(request, "/api/folders", { name: folderName, type: "folder", conversationId: 0, parentId: 0, path: "" });
  await post(request, "/api/files", {
    name: "Board calendar",
    type: "note",
    conversationId: 0,
    parentId: folder.id,
    content: "The board meets in the second week of every quarter.",
    description: "Calendar",
  });
  const note = await post(request, "/api/files", {
    name: "",
    type: "note",
    conversationId: 0,
    parentId: 0,
    content: "Board governance principles: independence, accountability and a clear annual calendar for every committee.",
    description: "A long description of the governance principles the board agreed on at its annual retreat, kept here for reference.",
  });
  await post(request, "/api/files", {
    type: "url",
    url: "https://example.com/reports/annual-report-2025",
    name: "example.com - annual-report-2025",
    conversationId: 0,
    parentId: 0,
    description: "Annual report",
  });
  await post(request, "/api/memories", {
    content:
      "Anna Berg is the chief of staff; she approves every board pack, travel plan and press statement before it goes out, and prefers a short summary first",
  });
  await post(request, "/api/memories", { content: "Prefers emails under 100 words" });

  // A model call that failed on the service's quota: saved as the turn saves it.
  const failedAnswer = await post(request, "/api/conversations", { name: "Board pack summary" });
  await post(request, `/api/conversations/${failedAnswer.id as number}/messages`, { role: "user", content: "Summarise the board pack in five lines." });
  await post(request, `/api/conversations/${failedAnswer.id as number}/messages`, { role: "model", content: modelFailedText("quota") });

  // A calendar: the Today panel lists the next meetings (read once; the feed may close after).
  const feed = await serveIcsFeed(SEEDED_MEETINGS);
  try {
    await post(request, "/api/accounts", { kind: "calendar", name: "Board calendar", icsUrl: feed.url });
    await expect
      .poll(async () => ((await (await request.get("/api/accounts")).json()) as { counts?: { events?: number } }[])[0]?.counts?.events)
      .toBe(SEEDED_MEETINGS.length);
  } finally {
    await feed.close();
  }

  return {
    failedAnswerConversationId: failedAnswer.id as number,
    conversationId: id,
    draftConversationId: deck.id as number,
    conversationName: LONG_CONVERSATION_NAME,
    failedFileName: FAILED_LINK_NAME,
    uploadName: "board-minutes.txt",
    scheduleTitle,
    folderName,
    noteName: note.name as string,
    researchConversationId: research.id as number,
  };
}
