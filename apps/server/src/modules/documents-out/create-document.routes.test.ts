import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";
import { docxFootnotes, docxHtml, pdfPages, pptxSlides, xlsxSheets } from "./test/read-back.ts";

// One app and one conversation for the file: each test is one turn (the generated files go through the same
// conversion processes as uploads, so this is a system test).
let gemini: FakeGemini;
let t: TestApp;
let cookie: string;
let conversationId: number;
beforeAll(async () => {
  gemini = await startFakeGemini();
  t = await createTestApp({
    env: { GEMINI_API_KEY: "documents-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_ALLOWED_MODELS: "gemini-2.5-flash" },
  });
  cookie = await t.login();
  conversationId = (await api("POST", "/api/conversations", { name: "Board" })).json().id;
  const upload = await knowledgeClient(t, cookie).upload(
    { userId: 3, conversationId, parentId: 0, path: "", description: "" },
    { filename: "zebra-report.txt", content: Buffer.from("The zebra census for March: 41 zebras counted at the north gate of the park."), type: "text/plain" },
  );
  // Read at once on a quiet machine (200), in the background on a loaded one (202): either way, ready before a turn.
  expect([200, 202], upload.body).toContain(upload.statusCode);
  // A knowledge base holds more than the one report: with two or three passages, every word of the census is in most
  // of them and weighs nothing in BM25, so a search for its sentence found nothing (noticed at stop 55).
  for (const [index, text] of [
    "Board minutes: the budget for the new wing was approved.",
    "Travel policy: book trains for trips under four hours.",
  ].entries()) {
    const other = await knowledgeClient(t, cookie).upload(
      { userId: 3, conversationId: null as unknown as number, parentId: 0, path: "", description: "" },
      { filename: `other-${index}.txt`, content: Buffer.from(text), type: "text/plain" },
    );
    expect([200, 202], other.body).toContain(other.statusCode);
  }
  await t.jobs.idle();
});
afterAll(async () => {
  await t?.close();
  await gemini?.close();
});

function api(method: "GET" | "POST", url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}
async function createDocument(args: Record<string, unknown>, message = "Write up the zebra census for March") {
  gemini.script({ functionCalls: [{ name: "createDocument", args }] }, { text: "Here it is." });
  const response = await api("POST", `/api/conversations/${conversationId}/turn`, { content: message });
  expect(response.statusCode).toBe(200);
  return turnEvents(response.body);
}
/** The file the turn numbered [1] (the knowledge context grows as the tests add files). */
const firstCited = (received: [string, any][]) => received.find(([event]) => event === "citations")![1].items[0].filename as string;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const download = async (fileId: number) => {
  const response = await api("GET", `/api/files/${fileId}/download`);
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
};

describe("createDocument in a turn", () => {
  it("docx: saved in the conversation's files, announced, downloadable, its citation a footnote, and searchable", async () => {
    const received = await createDocument({
      format: "docx",
      title: "Zebra census",
      content: "## Findings\n\nWe counted 41 zebras at the north gate [1].\n\n- Count again in April",
    });
    // The model is offered the tool and told when to use it.
    const asked = gemini.requests.filter((request) => request.action === "streamGenerateContent")[0]!.body;
    expect(asked.tools[0].functionDeclarations.map((declaration: { name: string }) => declaration.name)).toContain("createDocument");
    expect(asked.systemInstruction.parts[0].text).toContain("write it with createDocument");
    const created = received.find(([event]) => event === "document-created")![1];
    expect(created).toEqual({ fileId: expect.any(Number), name: "Zebra census.docx", format: "docx", draftId: expect.any(Number) });
    const html = await docxHtml(await download(created.fileId));
    expect(html).toContain("<h2>Findings</h2>");
    expect(html).toContain("Count again in April");
    expect(docxFootnotes(html)).toEqual([expect.stringMatching(/^zebra-report\.txt/)]);

    // Read in the background, like a large upload: listed at once, ready once read.
    await expect
      .poll(async () =>
        (await api("GET", `/api/conversations/${conversationId}/files`)).json().map((file: { name: string; status: string }) => [file.name, file.status]),
      )
      .toContainEqual(["Zebra census.docx", "ready"]);
    const found = (await api("POST", "/api/search", { query: "April", conversationId })).json();
    expect(found[0].metadata.filename).toBe("Zebra census.docx");
    // Issue 52 item 11: what the file says, its source says too: the source ranks first, and a passage of the
    // generated file names what it was made from (before: "Zebra census.docx" first, as if it were the source).
    const census = (await api("POST", "/api/search", { query: "41 zebras counted at the north gate", conversationId })).json();
    expect(census[0].metadata.filename).toBe("zebra-report.txt");
    expect(census.find((hit: { metadata: { filename: string } }) => hit.metadata.filename === "Zebra census.docx")?.metadata.source).toMatch(
      /made by SAGE from zebra-report\.txt$/,
    );
    // The saved answer keeps the call, so the chat shows the file's card after a reload.
    const messages = (await api("GET", `/api/conversations/${conversationId}/messages`)).json();
    expect(messages.at(-1).toolCalls[0]).toMatchObject({
      name: "createDocument",
      result: { success: true, fileId: created.fileId, name: "Zebra census.docx" },
    });
  });

  it("pptx from an outline: a slide per ## heading with speaker notes, and a Sources slide for the citation", async () => {
    const outline =
      "# Zebra census\n\n## March count\n\n- 41 zebras [1]\n\nNotes: Say where they were counted.\n\n## Next count\n\n- April, same gate\n\n## Budget\n\n- Two rangers";
    const received = await createDocument({ format: "pptx", title: "Zebra census deck", content: outline }, "Make a deck of the zebra census for March");
    const { fileId } = received.find(([event]) => event === "document-created")![1];
    const slides = await pptxSlides(await download(fileId));
    expect(slides).toHaveLength(5);
    expect(slides[1]).toEqual({ text: expect.stringContaining("March count"), notes: "Say where they were counted." });
    expect(slides[4]!.text).toMatch(new RegExp(`^Sources \\[1\\] ${escape(firstCited(received))}`));
  });

  it("xlsx: each table a sheet whose cells read back as numbers", async () => {
    const content = "## Counts\n\n| Gate | Zebras |\n|---|---|\n| North | 41 |\n| South | 1,250 |";
    const received = await createDocument({ format: "xlsx", title: "Zebra counts", content });
    const { fileId } = received.find(([event]) => event === "document-created")![1];
    expect(xlsxSheets(await download(fileId))).toEqual({
      Counts: [
        ["Gate", "Zebras"],
        ["North", 41],
        ["South", 1250],
      ],
    });
  });

  it("pdf: its text, and the citation's footnote at the foot of the page", async () => {
    const received = await createDocument({ format: "pdf", title: "Zebra brief", content: "The census found 41 zebras [1]." });
    const { fileId, name } = received.find(([event]) => event === "document-created")![1];
    expect(name).toBe("Zebra brief.pdf");
    const [page] = await pdfPages(await download(fileId));
    expect(page).toContain("Zebra brief");
    expect(page).toContain("The census found 41 zebras [1].");
    expect(page).toMatch(new RegExp(`1 ${escape(firstCited(received))}.*\\s*$`));
  });

  it("a format SAGE cannot write makes no file, and the model hears why", async () => {
    const before = (await api("GET", `/api/conversations/${conversationId}/files`)).json().length;
    const received = await createDocument({ format: "odt", title: "Notes", content: "Text" });
    expect(received.some(([event]) => event === "document-created")).toBe(false);
    expect(received.find(([event]) => event === "tool-result")![1].result).toEqual({ success: false, error: "format must be one of docx, pptx, xlsx or pdf" });
    expect((await api("GET", `/api/conversations/${conversationId}/files`)).json()).toHaveLength(before);
  });
});
