import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import mammoth from "mammoth";
import { RESEARCH_TEXTS } from "@sage/contracts/chat-turn";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

/** Research (decision 046) against the fake Gemini (plan, web searches, the report) and a local site to read. */
let gemini: FakeGemini;
let site: Server;
let origin: string;
const pagesAsked: string[] = [];
let hold: (() => void)[] = [];
/** Times SAGE closed its connection to the held page before the page answered (it stopped reading it). */
let pagesGivenUp = 0;

const SALES_PAGE = `<!doctype html><html><head><title>Electric truck sales 2026</title></head><body><article>
<h1>Electric truck sales 2026</h1>
<p>Registrations of heavy electric trucks in Europe doubled in 2026, to 21,400 vehicles, the association reported.</p>
<p>Fleet buyers named depot charging as the main constraint on orders for the coming year.</p>
</article></body></html>`;

beforeAll(async () => {
  gemini = await startFakeGemini();
  site = createServer((request, response) => {
    pagesAsked.push(request.url ?? "");
    if (request.url === "/sales") return void response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(SALES_PAGE);
    // A page that never answers until the test lets it go (the research is stopped while reading it).
    if (request.url === "/slow") {
      response.on("close", () => {
        if (!response.writableFinished) pagesGivenUp++;
      });
      return void hold.push(() => response.writeHead(200, { "content-type": "text/html" }).end("<p>late</p>"));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gemini.close();
  await new Promise((resolve) => site.close(resolve));
});

let t: TestApp;
let cookie: string;
let conversationId: number;

beforeEach(async () => {
  gemini.reset();
  pagesAsked.length = 0;
  pagesGivenUp = 0;
  t = await createTestApp({
    env: {
      GEMINI_API_KEY: "research-key",
      GEMINI_BASE_URL: gemini.baseUrl,
      SAGE_EMBEDDER: "none",
      SAGE_ALLOWED_MODELS: "gemini-2.5-flash",
      // The local site is on a loopback address: the test's private-address setting lets the safe fetcher read it.
      SAGE_FETCH_ALLOW_PRIVATE: "true",
      SAGE_RESEARCH_MAX_PAGES: "1",
    },
  });
  cookie = await t.login();
  conversationId = (await t.app.inject({ method: "POST", url: "/api/conversations", payload: { name: "Research" }, headers: { cookie } })).json().id;
  const upload = await knowledgeClient(t, cookie).upload(
    { userId: 3, conversationId, parentId: 0, path: "", description: "" },
    { filename: "fleet-plan.txt", content: Buffer.from("Our fleet plan: forty electric trucks by 2027, charged at the Brno depot."), type: "text/plain" },
  );
  expect(upload.statusCode, upload.body).toBe(200);
});
afterEach(async () => {
  for (const release of hold) release();
  hold = [];
  await t?.close();
});

const saved = async () => (await t.app.inject({ method: "GET", url: `/api/conversations/${conversationId}/messages`, headers: { cookie } })).json() as any[];
const steps = (received: [string, any][]) => received.filter(([name]) => name === "research-step").map(([, data]) => data.item);

describe("research", () => {
  it("plans, searches the web and the documents twice, reads the best page and writes a report citing both", async () => {
    gemini.script(
      { json: { questions: ["electric truck sales 2026", "electric truck depot charging"] } },
      { text: "Sales doubled in 2026.", sources: [{ title: "Electric truck sales 2026", uri: `${origin}/sales` }] },
      { text: "Depot charging is the constraint.", sources: [{ title: "Depot charging", uri: `${origin}/depots` }] },
      { chunks: ["## Summary\n\n", "Sales of electric trucks doubled in 2026 [2]. ", "Our plan is forty trucks by 2027 [1]."] },
    );
    const response = await t.app.inject({
      method: "POST",
      url: `/api/conversations/${conversationId}/turn`,
      payload: { content: "Electric trucks for our fleet", research: true },
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    const received = turnEvents(response.body);
    expect(steps(received)).toEqual([
      { step: "planned", questions: ["electric truck sales 2026", "electric truck depot charging"] },
      { step: "searching", query: "electric truck sales 2026", where: "documents" },
      { step: "searching", query: "electric truck sales 2026", where: "web" },
      { step: "searching", query: "electric truck depot charging", where: "documents" },
      { step: "searching", query: "electric truck depot charging", where: "web" },
      { step: "reading", url: `${origin}/sales`, title: "Electric truck sales 2026" },
      { step: "writing", sources: 2 },
    ]);
    // One page, the best of the first question: the page limit (1) leaves the second question's page unread.
    expect(pagesAsked).toEqual(["/sales"]);

    // The plan was a structured request on the topic alone; the web searches were two grounded requests.
    const [plan] = gemini.requests.filter((request) => request.body.generationConfig?.responseSchema);
    expect(JSON.stringify(plan!.body.contents)).toContain("Electric trucks for our fleet");
    const grounded = gemini.requests.filter((request) => (request.body.tools ?? []).some((tool: any) => tool.googleSearch || tool.google_search));
    expect(grounded.map((request) => JSON.stringify(request.body.contents))).toEqual([
      expect.stringContaining("electric truck sales 2026"),
      expect.stringContaining("electric truck depot charging"),
    ]);
    // The writer was given the page's text and the passage, numbered.
    const writer = gemini.requests.filter((request) => request.action === "streamGenerateContent").at(-1)!;
    const given = JSON.stringify(writer.body.contents);
    expect(given).toContain("21,400 vehicles");
    expect(given).toContain("forty electric trucks");

    const messages = await saved();
    expect(messages.map((message) => message.role)).toEqual(["user", "model"]);
    const report = messages[1];
    expect(report.content).toBe("## Summary\n\nSales of electric trucks doubled in 2026 [2]. Our plan is forty trucks by 2027 [1].");
    expect(report.citations).toEqual([
      expect.objectContaining({ n: 1, filename: "fleet-plan.txt", content: expect.stringContaining("forty electric trucks") }),
      expect.objectContaining({
        n: 2,
        kind: "url",
        href: `${origin}/sales`,
        filename: "Electric truck sales 2026",
        content: expect.stringContaining("21,400"),
      }),
    ]);
    expect(report.toolCalls).toEqual([expect.objectContaining({ name: "research", args: { topic: "Electric trucks for our fleet" } })]);
    expect(report.toolCalls[0].result).toMatchObject({
      questions: ["electric truck sales 2026", "electric truck depot charging"],
      read: [{ url: `${origin}/sales` }],
    });

    // The report exports like any answer: the web page's citation becomes a footnote with its title and address.
    gemini.script(
      { functionCalls: [{ name: "createDocument", args: { format: "docx", title: "Electric trucks", content: "## Summary\n\nSales doubled in 2026 [2]." } }] },
      { text: "Here is the report as a Word document." },
    );
    const exported = turnEvents(
      (
        await t.app.inject({
          method: "POST",
          url: `/api/conversations/${conversationId}/turn`,
          payload: { content: "Make it a Word document" },
          headers: { cookie },
        })
      ).body,
    );
    const created = exported.find(([name]) => name === "document-created")![1];
    const file = await t.app.inject({ method: "GET", url: `/api/files/${created.fileId}/download`, headers: { cookie } });
    const html = (await mammoth.convertToHtml({ buffer: file.rawPayload })).value;
    expect(html).toContain(`Electric truck sales 2026, ${origin}/sales`);
  });

  it("refuses a private address when the setting is off: the report is written from the searches alone", async () => {
    await t.close();
    t = await createTestApp({
      env: {
        GEMINI_API_KEY: "research-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
        SAGE_ALLOWED_MODELS: "gemini-2.5-flash",
        SAGE_RESEARCH_MAX_QUESTIONS: "1",
      },
    });
    cookie = await t.login();
    conversationId = (await t.app.inject({ method: "POST", url: "/api/conversations", payload: { name: "Research" }, headers: { cookie } })).json().id;
    gemini.script(
      { json: { questions: ["electric truck sales 2026", "a second question over the limit"] } },
      { text: "Sales doubled in 2026.", sources: [{ title: "Electric truck sales 2026", uri: `${origin}/sales` }] },
      { text: "No page could be read; the searches say sales doubled." },
    );
    const response = await t.app.inject({
      method: "POST",
      url: `/api/conversations/${conversationId}/turn`,
      payload: { content: "Electric truck sales", research: true },
      headers: { cookie },
    });
    const received = steps(turnEvents(response.body));
    expect(received.map((step) => step.step)).toEqual(["planned", "searching", "searching", "reading", "writing"]);
    expect(received[0]).toEqual({ step: "planned", questions: ["electric truck sales 2026"] });
    expect(pagesAsked).toEqual([]);
    const result = (await saved())[1].toolCalls[0].result;
    expect(result).toMatchObject({ read: [], notRead: [`${origin}/sales`], sources: [] });
  });

  it("stops cleanly: the saved answer says the research stopped and keeps the sources found so far", async () => {
    gemini.script(
      { json: { questions: ["electric truck depot charging"] } },
      { text: "Depot charging is the constraint.", sources: [{ title: "Depots", uri: `${origin}/slow` }] },
    );
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const controller = new AbortController();
    const response = await fetch(`${address}/api/conversations/${conversationId}/turn`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ content: "Electric trucks for our fleet", research: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = "";
    while (!received.includes('"step":"reading"')) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    let messages: any[] = [];
    for (let tries = 0; tries < 100 && messages.length < 2; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      messages = await saved();
    }
    expect(messages.map((message) => message.role)).toEqual(["user", "model"]);
    expect(messages[1].content).toBe(RESEARCH_TEXTS.stoppedBeforeReport(1));
    expect(messages[1].citations).toEqual([expect.objectContaining({ n: 1, filename: "fleet-plan.txt" })]);
    // The stopped run gave up the page it was reading (a signal, not a pause): the page's late answer reaches no one,
    // so no report is asked for and nothing is saved later.
    await expect.poll(() => pagesGivenUp).toBe(1);
    for (const release of hold) release();
    hold = [];
    expect(gemini.requests.filter((request) => request.action === "streamGenerateContent")).toEqual([]);
    expect(await saved()).toEqual(messages);
  });
});
