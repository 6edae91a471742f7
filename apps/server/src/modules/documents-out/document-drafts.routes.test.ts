import { DRAFT_TEXTS } from "@sage/contracts/documents-out";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";
import { pdfPages, pptxSlides } from "./test/read-back.ts";

// One app for the file; the tests follow one draft from the model's first version through the user's edits, a
// revision and exports (files are written in a worker thread and read in conversion processes: a system test).
let gemini: FakeGemini;
let t: TestApp;
let cookie: string;
let conversationId: number;
beforeAll(async () => {
  gemini = await startFakeGemini();
  t = await createTestApp({ env: { GEMINI_API_KEY: "drafts-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" } });
  cookie = await t.login();
  conversationId = (await api("POST", "/api/conversations", { name: "Board" })).json().id;
});
afterAll(async () => {
  await t?.close();
  await gemini?.close();
});

function api(method: "GET" | "POST" | "PUT", url: string, payload?: object, as = cookie) {
  return t.app.inject({ method, url, headers: { cookie: as }, ...(payload ? { payload } : {}) });
}
async function turn(content: string, ...replies: Parameters<FakeGemini["script"]>) {
  gemini.script(...replies);
  const response = await api("POST", `/api/conversations/${conversationId}/turn`, { content });
  expect(response.statusCode).toBe(200);
  return turnEvents(response.body);
}
const results = (received: [string, any][]) => received.filter(([event]) => event === "tool-result").map(([, data]) => data.result);
const download = async (fileId: number) => (await api("GET", `/api/files/${fileId}/download`)).rawPayload;
const slideTexts = async (fileId: number) => (await pptxSlides(await download(fileId))).map((slide) => slide.text);

const OUTLINE =
  "## Results\n\n- Revenue up 12%\n\n## Risks\n\n- Supplier delays in the third quarter affecting two product lines\n\n## Asks\n\n- Approve the budget";

describe("document drafts (the canvas)", () => {
  let draftId: number;

  it("a created document keeps its Markdown as a draft the user can read", async () => {
    const received = await turn(
      "Make a deck for the board",
      { functionCalls: [{ name: "createDocument", args: { format: "pptx", title: "Board update", content: OUTLINE } }] },
      { text: "Here is the deck." },
    );
    const created = received.find(([event]) => event === "document-created")![1];
    expect(created).toEqual({ fileId: expect.any(Number), name: "Board update.pptx", format: "pptx", draftId: expect.any(Number) });
    draftId = created.draftId;
    const draft = (await api("GET", `/api/document-drafts/${draftId}`)).json();
    expect(draft).toMatchObject({
      id: draftId,
      conversationId,
      format: "pptx",
      title: "Board update",
      content: OUTLINE,
      version: 1,
      fileId: created.fileId,
      exported: true,
    });
  });

  it("the user's edit is saved without touching the file, and Export writes a new file with it; Export again reuses it", async () => {
    const before = (await api("GET", `/api/document-drafts/${draftId}`)).json();
    const edited = OUTLINE.replace("Revenue up 12%", "Revenue up 14% (audited)");
    const saved = await api("PUT", `/api/document-drafts/${draftId}`, { title: "Board update", content: edited, version: 1 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, content: edited, exported: false, fileId: before.fileId });
    expect((await slideTexts(before.fileId)).join(" ")).toContain("Revenue up 12%");

    const exported = (await api("POST", `/api/document-drafts/${draftId}/export`)).json();
    expect(exported.draft).toMatchObject({ version: 2, exported: true });
    // Issue 52 item 10: a new version is named as one (before: a second "Board update.pptx").
    expect(exported.document).toMatchObject({ format: "pptx", draftId, name: "Board update (v2).pptx" });
    expect(exported.document.fileId).not.toBe(before.fileId);
    const names = (await api("GET", `/api/conversations/${conversationId}/files`)).json().map((file: { name: string }) => file.name);
    expect(names.filter((name: string) => name.startsWith("Board update")).sort()).toEqual(["Board update (v2).pptx", "Board update.pptx"]);
    expect((await slideTexts(exported.document.fileId)).join(" ")).toContain("Revenue up 14% (audited)");
    // The earlier file stays (the user may have sent it on); the draft points at the newest.
    expect((await api("GET", `/api/files/${before.fileId}/download`)).statusCode).toBe(200);
    expect((await api("POST", `/api/document-drafts/${draftId}/export`)).json().document.fileId).toBe(exported.document.fileId);
  });

  it("a save from an editor that started before another change is refused with 409 and changes nothing", async () => {
    const stale = await api("PUT", `/api/document-drafts/${draftId}`, { title: "Board update", content: "Overwritten", version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: DRAFT_TEXTS.changedMeanwhile, code: "draft_changed" });
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json()).toMatchObject({ version: 2, content: expect.stringContaining("14% (audited)") });
  });

  it("the model cannot revise over edits it has not read; after reading them its revision keeps them and makes a new file", async () => {
    const shorter = "## Results\n\n- Revenue up 14% (audited)\n\n## Risks\n\n- Supplier delays\n\n## Asks\n\n- Approve the budget";
    const refused = await turn(
      "Make the risks slide shorter",
      { functionCalls: [{ name: "reviseDocument", args: { draftId, content: shorter.replace("14% (audited)", "12%") } }] },
      { text: "I need to read your edits first." },
    );
    expect(results(refused)).toEqual([{ success: false, error: DRAFT_TEXTS.readFirst }]);
    expect(refused.some(([event]) => event === "document-created")).toBe(false);
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json()).toMatchObject({ version: 2, content: expect.stringContaining("14% (audited)") });

    const revised = await turn(
      "Make the risks slide shorter",
      { functionCalls: [{ name: "readDocumentDraft", args: { draftId } }] },
      { functionCalls: [{ name: "reviseDocument", args: { draftId, content: shorter } }] },
      { text: "Shortened the risks slide." },
    );
    const [read, revision] = results(revised);
    expect(read).toMatchObject({ success: true, draftId, content: expect.stringContaining("14% (audited)") });
    expect(revision).toMatchObject({ success: true, draftId, name: "Board update (v3).pptx" });
    const created = revised.find(([event]) => event === "document-created")![1];
    expect(created.draftId).toBe(draftId);
    const texts = await slideTexts(created.fileId);
    expect(texts.join(" ")).toContain("Supplier delays");
    expect(texts.join(" ")).not.toContain("third quarter");
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json()).toMatchObject({
      version: 3,
      content: shorter,
      fileId: created.fileId,
      exported: true,
    });
  });

  it("a revision in a conversation with no draft is told to create one; another conversation's draft is out of reach", async () => {
    const other = (await api("POST", "/api/conversations", { name: "Other" })).json().id;
    gemini.script({ functionCalls: [{ name: "reviseDocument", args: { draftId, content: "# Hijack" } }] }, { text: "No draft here." });
    const response = await api("POST", `/api/conversations/${other}/turn`, { content: "Change the deck" });
    expect(results(turnEvents(response.body))).toEqual([{ success: false, error: DRAFT_TEXTS.noDraft }]);
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json().content).not.toContain("Hijack");
  });

  it("bad input is a 400 that changes nothing; another user's draft is not found", async () => {
    const before = (await api("GET", `/api/document-drafts/${draftId}`)).json();
    for (const body of [
      { title: "", content: "x", version: before.version },
      { title: "T", content: "   ", version: before.version },
      { title: "T", content: "x" },
    ]) {
      const response = await api("PUT", `/api/document-drafts/${draftId}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe("validation_error");
    }
    expect((await api("GET", "/api/document-drafts/abc")).statusCode).toBe(400);
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json()).toEqual(before);

    const { cookie: stranger } = await t.loginAsNewUser();
    for (const [method, url, body] of [
      ["GET", `/api/document-drafts/${draftId}`, undefined],
      ["PUT", `/api/document-drafts/${draftId}`, { title: "Mine", content: "Mine", version: before.version }],
      // Whose it is comes before the body's checks: a bad body to another user's draft names nothing either.
      ["PUT", `/api/document-drafts/${draftId}`, { title: "", content: "Mine" }],
      ["POST", `/api/document-drafts/${draftId}/export`, undefined],
    ] as const) {
      const response = await api(method, url, body, stranger);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: DRAFT_TEXTS.notFound, code: "not_found" });
    }
    expect((await api("GET", `/api/document-drafts/${draftId}`)).json()).toEqual(before);
  });

  it("a PDF draft exports its edited text", async () => {
    const received = await turn(
      "Write a one-page brief",
      { functionCalls: [{ name: "createDocument", args: { format: "pdf", title: "Brief", content: "The plan is on track." } }] },
      { text: "Done." },
    );
    const { draftId: pdfDraft } = received.find(([event]) => event === "document-created")![1];
    await api("PUT", `/api/document-drafts/${pdfDraft}`, { title: "Brief", content: "The plan is two weeks late.", version: 1 });
    const { document } = (await api("POST", `/api/document-drafts/${pdfDraft}/export`)).json();
    expect((await pdfPages(await download(document.fileId)))[0]).toContain("The plan is two weeks late.");
  });
});
