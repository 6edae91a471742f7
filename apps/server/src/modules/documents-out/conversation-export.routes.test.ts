import type { Citation } from "@sage/contracts/conversations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { docxFootnotes, docxHtml, pdfPages } from "./test/read-back.ts";

let t: TestApp;
let cookie: string;
let conversationId: number;
const cited = (n: number, filename: string, source: string): Citation => ({ n, fileId: 0, filename, source, score: 0.8, content: "passage" });

beforeAll(async () => {
  t = await createTestApp({ env: { SAGE_EMBEDDER: "none", SAGE_TIME_ZONE: "UTC" } });
  cookie = await t.login();
  // The user's own zone (issue 52 item 9): the export's times are written in it.
  await t.app.inject({ method: "PUT", url: "/api/calendar/time-zone", headers: { cookie }, payload: { timeZone: "Europe/Zurich" } });
  conversationId = (await get("POST", "/api/conversations", { name: "Q3 board prep" })).json().id;
  // Two answers, each numbering its own passages from [1], as turns do.
  await t.store.db.transaction().execute(async (trx) => {
    // One path (decision 045): each message follows the one before it, the last one the end of what is shown.
    let parentId: number | null = null;
    const insert = async (role: "user" | "model", content: string, citations: string | null, toolCalls: string | null) => {
      const values = { conversationId, role, content, citations, toolCalls, createdAt: "2026-11-27T10:00:00.000Z", parentId, branchRank: (parentId ?? 0) + 1 };
      parentId = (await trx.insertInto("messages").values(values).returning("id").executeTakeFirstOrThrow()).id;
    };
    await insert("user", "What did revenue do?", null, null);
    await insert("model", "Revenue grew **12%** [1].", JSON.stringify([cited(1, "q3-report.pdf", "q3-report.pdf/page 4")]), null);
    await insert("user", "And hiring?", null, null);
    await insert(
      "model",
      "Two engineers joined [1], as planned [2].",
      JSON.stringify([cited(1, "hr.docx", "hr.docx"), cited(2, "q3-report.pdf", "q3-report.pdf/page 4")]),
      // The answer made a deck: the export names the file under it.
      JSON.stringify([{ id: "c1", name: "createDocument", args: {}, result: { success: true, fileId: 9, name: "Hiring.pptx", format: "pptx" } }]),
    );
    await insert("user", "Tell Anna and the CFO.", null, null);
    // What came of the e-mails the user was asked about (issue 52 item 9): one approved, one declined.
    await insert(
      "model",
      "I sent the note to Anna; the CFO's was not sent.",
      null,
      JSON.stringify([
        {
          id: "s1",
          name: "sendEmail",
          args: { to: ["anna.keller@kestrel.example"] },
          result: { success: true, message: "Sent to anna.keller@kestrel.example." },
          approval: { answer: "approved" },
        },
        {
          id: "s2",
          name: "sendEmail",
          args: { to: ["cfo@kestrel.example"] },
          result: { success: false, declined: true, message: "The user declined: the e-mail was not sent." },
          approval: { answer: "declined" },
        },
      ]),
    );
  });
});
afterAll(() => t?.close());

function get(method: "GET" | "POST", url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}
const exported = (format: string) => get("GET", `/api/conversations/${conversationId}/export?format=${format}`);

describe("GET /api/conversations/{id}/export", () => {
  it("md: every message under who said it, citations as footnotes numbered across the conversation", async () => {
    const response = await exported("md");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(response.headers["content-disposition"]).toContain('filename="Q3 board prep.md"');
    const text = response.body;
    // 10:00 UTC in Zurich's winter time; before: "27 Nov 2026, 10:00 UTC".
    expect(text.startsWith("# Q3 board prep\n\n## You · 27 Nov 2026, 11:00 CET\n")).toBe(true);
    expect(text).toContain(
      "I sent the note to Anna; the CFO's was not sent.\n\n_Sent to anna.keller@kestrel.example._\n\n_E-mail to cfo@kestrel.example: not sent: declined_",
    );
    expect(text).toContain("Revenue grew **12%** [^1].");
    expect(text).toContain("Two engineers joined [^2], as planned [^1].\n\n_Created: Hiring.pptx_");
    expect(text.trimEnd().endsWith("[^1]: q3-report.pdf, page 4\n[^2]: hr.docx")).toBe(true);
  });

  it("docx: the messages as Word headings and text, and each citation a footnote", async () => {
    const response = await exported("docx");
    expect(response.headers["content-disposition"]).toContain('filename="Q3 board prep.docx"');
    const html = await docxHtml(response.rawPayload);
    expect(html).toMatch(/<h2>You · 27 Nov 2026, 11:00 CET<\/h2><p>What did revenue do\?<\/p><h2>SAGE · /);
    expect(html).toContain("E-mail to cfo@kestrel.example: not sent: declined");
    expect(html).toContain("<strong>12%</strong>");
    expect(docxFootnotes(html)).toEqual(["q3-report.pdf, page 4", "hr.docx", "q3-report.pdf, page 4"]);
  });

  it("pdf: the messages' text and the footnotes at the foot of the page", async () => {
    const response = await exported("pdf");
    expect(response.headers["content-type"]).toBe("application/pdf");
    const [page] = await pdfPages(response.rawPayload);
    expect(page).toContain("What did revenue do?");
    expect(page).toContain("Two engineers joined [2], as planned [1].");
    expect(page).toContain("Created: Hiring.pptx");
    expect(page).toContain("27 Nov 2026, 11:00 CET");
    expect(page).toContain("Sent to anna.keller@kestrel.example.");
    expect(page).toMatch(/1 q3-report\.pdf, page 4\s*2 hr\.docx\s*$/);
  });

  it("refuses an unknown format, and another user's conversation, with a JSON error", async () => {
    const bad = await exported("odt");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain("format must be md, docx or pdf");
    const { cookie: otherCookie } = await t.loginAsNewUser();
    const response = await t.app.inject({ method: "GET", url: `/api/conversations/${conversationId}/export?format=md`, headers: { cookie: otherCookie } });
    expect(response.statusCode).toBe(404);
    // Whose it is comes before the query's checks: a bad format to another user's conversation is not found either.
    const foreign = await t.app.inject({ method: "GET", url: `/api/conversations/${conversationId}/export?format=odt`, headers: { cookie: otherCookie } });
    expect(foreign.statusCode).toBe(404);
  });
});
