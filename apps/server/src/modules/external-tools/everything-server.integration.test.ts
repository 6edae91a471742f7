import { writeFileSync } from "node:fs";
import path from "node:path";
import { annotationsInWords, EXTERNAL_TOOL_TEXTS } from "@sage/contracts/external-tools";
import { ELICITATION_TEXTS } from "@sage/contracts/elicitation";
import { everythingStdioEntry, startEverythingHttp, type EverythingHttpServer } from "@sage/testkit/everything-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startMcpHttpServer } from "@sage/testkit/mcp-http-test-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp } from "../../test/test-app.ts";
import { turnEvents as events } from "../../test/turn-events.ts";

/**
 * The reference MCP server (@modelcontextprotocol/server-everything) through the whole app (decision 080): its tools
 * with their annotations, structured output and resource links, progress, a server's question answered on a card,
 * list_changed, resources and prompts; over stdio from the administrator's file, and over Streamable HTTP added by a
 * user. Each app is started once per block: a start of the server takes seconds on a busy machine.
 */
let gemini: FakeGemini;
const temp = makeTempDir();
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(async () => {
  await gemini.close();
  temp.remove();
});
beforeEach(() => gemini.reset());

async function appWith(servers: Record<string, unknown>, env: Record<string, string> = {}) {
  const configPath = path.join(temp.dir, `mcp-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
  const t = await createTestApp({
    env: {
      GEMINI_API_KEY: "mcp-key",
      GEMINI_BASE_URL: gemini.baseUrl,
      SAGE_EMBEDDER: "none",
      SAGE_MCP_CONFIG: configPath,
      SAGE_MCP_TIMEOUT_MS: "20000",
      ...env,
    },
  });
  const cookie = await t.login();
  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, as = cookie) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: as } });
  const newConversation = async () => (await call("POST", "/api/conversations", { name: "Tools" })).json().id as number;
  // Each turn in a conversation of its own: an earlier tool's answer in the history would make every call ask (decision 031).
  const turn = async (content: string, extra: object = {}) => call("POST", `/api/conversations/${await newConversation()}/turn`, { content, ...extra });
  return { t, cookie, call, turn, newConversation };
}
type App = Awaited<ReturnType<typeof appWith>>;

/** Polls until `check` holds (servers start and notify at their own pace on a loaded machine). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const serverNamed = (listing: any, name: string) => listing.servers.find((server: any) => server.name === name);
const toolNamed = (listing: any, server: string, tool: string) => serverNamed(listing, server)?.tools.find((item: any) => item.name === tool);
const modelRequests = () => gemini.requests.filter((request) => request.action === "streamGenerateContent");

describe("server-everything over stdio, from the administrator's file", () => {
  let app: App;
  beforeAll(async () => {
    app = await appWith({ everything: everythingStdioEntry() });
    // Once it knows SAGE answers questions, the server adds tools and says so (tools/list_changed): they appear.
    await until(
      () => app.call("GET", "/api/tools").then((response) => response.json()),
      (listing) => !!toolNamed(listing, "everything", "trigger-elicitation-request"),
      "the tools added after start-up",
    );
  });
  afterAll(() => app?.t.close());

  it("lists its tools with what the server says of them; a tool that needs tasks is left out, saying why", async () => {
    const listing = (await app.call("GET", "/api/tools")).json();
    const server = serverNamed(listing, "everything");
    expect(server).toMatchObject({ id: "config:everything", source: "config", transport: "stdio", state: "connected", trusted: true });
    expect(toolNamed(listing, "everything", "echo")).toMatchObject({
      server: "everything",
      serverId: "config:everything",
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      readOnly: true,
      ask: false,
      alwaysAsks: false,
      structuredOutput: false,
    });
    expect(toolNamed(listing, "everything", "get-structured-content")).toMatchObject({ structuredOutput: true, readOnly: true });
    expect(toolNamed(listing, "everything", "trigger-elicitation-request")).toMatchObject({ readOnly: false, ask: true, alwaysAsks: false });
    expect(toolNamed(listing, "everything", "simulate-research-query").warning).toMatch(/background task, which SAGE does not run/);
  });

  it("shows structured content checked against the tool's schema, and resource links, and keeps them with the answer", async () => {
    gemini.script({ functionCalls: [{ name: "everything__get-structured-content", args: { location: "New York" } }] }, { text: "Cloudy." });
    const weather = events((await app.turn("Weather in New York")).body);
    gemini.script({ functionCalls: [{ name: "everything__get-resource-links", args: { count: 2 } }] }, { text: "Two resources." });
    const links = events((await app.turn("Two links")).body);
    const results = [weather, links].map((received) => received.find(([event]) => event === "tool-result")![1]);
    expect(results[0].output).toEqual({
      serverId: "config:everything",
      structured: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) },
    });
    expect(results[1].output.links).toHaveLength(2);
    expect(results[1].output.links[0]).toMatchObject({ uri: expect.stringMatching(/^demo:\/\/resource\/dynamic\//), name: expect.any(String) });
    // The model reads the structured data as text, and a link as a line naming it.
    expect(results[0].result).toMatchObject({ success: true, result: expect.stringContaining("temperature") });
    expect(results[1].result.result).toMatch(/\[Resource: .+ \(demo:\/\/resource\/dynamic\//);
    const saved = [weather, links].flatMap((received) => received.at(-1)![1].messages.flatMap((message: any) => message.toolCalls ?? []));
    expect(saved.map((call: any) => call.output)).toEqual(results.map((result) => result.output));
  });

  it("puts the server's progress reports on the tool's line as they come", async () => {
    gemini.script({ functionCalls: [{ name: "everything__trigger-long-running-operation", args: { duration: 0.6, steps: 3 } }] }, { text: "Done." });
    const received = events((await app.turn("Run the long operation")).body);
    const names = received.map(([event]) => event);
    const progress = received.filter(([event]) => event === "tool-progress").map(([, data]) => data);
    // The last report may be lost: the SDK hands notifications on a tick after the response that ends the call.
    expect(progress.slice(0, 2).map((item) => [item.progress, item.total])).toEqual([
      [1, 3],
      [2, 3],
    ]);
    const callId = received.find(([event]) => event === "tool-call")![1].id;
    expect(progress.every((item) => item.id === callId)).toBe(true);
    expect(names.indexOf("tool-progress")).toBeGreaterThan(names.indexOf("tool-call"));
    expect(names.lastIndexOf("tool-progress")).toBeLessThan(names.indexOf("tool-result"));
  });

  it("shows the server's question as a card, checks the answer, and sends it only to the server that asked", async () => {
    // The tool changes nothing the server says is destructive: the user may let it run without a card.
    expect((await app.call("PATCH", "/api/tools/settings", { server: "everything", tool: "trigger-elicitation-request", ask: false })).statusCode).toBe(200);
    gemini.script({ functionCalls: [{ name: "everything__trigger-elicitation-request", args: {} }] }, { text: "Thanks." });
    const running = app.turn("Ask me a few things");
    const [question] = await until(
      () => app.call("GET", "/api/elicitations").then((response) => response.json().elicitations),
      (list: any[]) => list.length > 0,
      "the server's question",
    );
    expect(question).toMatchObject({
      serverId: "config:everything",
      server: "everything",
      mode: "form",
      message: "Please provide inputs for the following fields:",
    });
    expect(Object.keys(question.schema.properties)).toEqual(expect.arrayContaining(["name", "email", "integer", "untitledMultipleSelectEnum"]));
    const answerAs = (body: object, cookie?: string) => app.call("POST", `/api/elicitations/${question.elicitationId}`, body, cookie);
    const other = await app.t.loginAsNewUser();
    expect((await answerAs({ action: "accept", content: { name: "Eve" } }, other.cookie)).statusCode).toBe(404);
    const wrong = await answerAs({ action: "accept", content: { name: "Ada", email: "not an address", integer: 500 } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(ELICITATION_TEXTS.invalidAnswer({ email: "must be an email address", integer: "must be at most 100" }));
    expect(
      (await answerAs({ action: "accept", content: { name: "Ada", email: "ada@example.com", integer: 7, untitledMultipleSelectEnum: ["Piano"] } })).json(),
    ).toEqual({
      elicitationId: question.elicitationId,
      action: "accept",
    });
    const received = events((await running).body);
    expect(received.find(([event]) => event === "elicitation-required")![1].elicitationId).toBe(question.elicitationId);
    const result = received.find(([event]) => event === "tool-result")![1].result.result as string;
    // What the server got: the user's answers, and the defaults of the fields left as they were (SEP-1034).
    expect(result).toContain('"name": "Ada"');
    expect(result).toContain('"integer": 7');
    expect(result).toContain('"firstLine": "It was a dark and stormy night."');
    expect((await answerAs({ action: "decline" })).statusCode).toBe(404); // answered once
  });

  it("offers its resources and prompts; an attached resource goes with the message as untrusted context, cited", async () => {
    const offered = (await app.call("GET", "/api/tools/resources")).json();
    const document = offered.resources.find((resource: any) => resource.uri.startsWith("demo://resource/static/document/"));
    expect(document).toMatchObject({ serverId: "config:everything", server: "everything", name: expect.any(String) });
    expect(offered.templates).toEqual(
      expect.arrayContaining([expect.objectContaining({ uriTemplate: "demo://resource/dynamic/text/{resourceId}", server: "everything" })]),
    );
    const read = await app.call("POST", "/api/tools/resources/read", { serverId: "config:everything", uri: document.uri });
    expect(read.statusCode).toBe(200);
    const text = read.json().contents[0].text as string;
    expect(text.length).toBeGreaterThan(20);
    expect((await app.call("POST", "/api/tools/resources/read", { serverId: "config:nowhere", uri: document.uri })).statusCode).toBe(404);
    expect((await app.call("POST", "/api/tools/resources/read", { serverId: "config:everything" })).statusCode).toBe(400);

    const { prompts } = (await app.call("GET", "/api/tools/prompts")).json();
    expect(prompts.find((prompt: any) => prompt.name === "args-prompt")).toMatchObject({
      serverId: "config:everything",
      arguments: [
        { name: "city", required: true, description: "Name of the city" },
        { name: "state", required: false },
      ],
    });
    const filled = await app.call("POST", "/api/tools/prompts/get", { serverId: "config:everything", name: "args-prompt", arguments: { city: "Paris" } });
    expect(filled.json()).toEqual({ text: "What's weather in Paris?" });
    const missing = await app.call("POST", "/api/tools/prompts/get", { serverId: "config:everything", name: "args-prompt", arguments: {} });
    expect([missing.statusCode, missing.json().error]).toEqual([400, "Fill in city"]);

    // A call that copies the resource's words sends someone else's text out: it asks first, naming the resource (issue 47).
    const copied = text.split(/\s+/).slice(0, 16).join(" ");
    gemini.script({ functionCalls: [{ name: "everything__echo", args: { message: copied } }] }, { text: "Noted." });
    const running = app.turn("Summarise the attached", { resources: [{ serverId: "config:everything", uri: document.uri }] });
    const approval = await until(
      () => app.call("GET", "/api/approvals").then((response) => response.json().approvals),
      (list: any[]) => list.length > 0,
      "the approval",
    );
    expect(approval[0].reason).toContain(`(everything)`);
    await app.call("POST", `/api/approvals/${approval[0].approvalId}`, { approved: false });
    const received = events((await running).body);
    const sent = JSON.stringify(modelRequests()[0]!.body.contents.at(-1));
    expect(sent).toContain(`from everything: `);
    expect(sent).toContain(text.match(/[A-Za-z ]{15,}/)![0]);
    const answer = received.at(-1)![1].messages.at(-1);
    expect(answer.citations).toEqual([
      expect.objectContaining({ kind: "resource", filename: document.title ?? document.name, source: `everything: ${document.uri}` }),
    ]);
  });
});

describe("server-everything over Streamable HTTP, added by a user", () => {
  let app: App;
  let server: EverythingHttpServer;
  beforeAll(async () => {
    server = await startEverythingHttp();
    app = await appWith({}, { SAGE_FETCH_ALLOW_PRIVATE: "true" });
  });
  afterAll(async () => {
    await app?.t.close();
    await server?.close();
  });

  it("connects for that user only; its hints count once the user trusts it; removing it ends it", async () => {
    const added = await app.call("POST", "/api/tools/servers", { name: "everything", url: server.url });
    expect(added.statusCode).toBe(201);
    const { id } = added.json();
    expect(added.json()).toEqual({ id, name: "everything", url: server.url, status: "connected", trusted: false });
    expect((await app.call("POST", "/api/tools/servers", { name: "Everything", url: server.url })).json().error).toBe(
      EXTERNAL_TOOL_TEXTS.nameTaken("Everything"),
    );
    expect((await app.call("POST", "/api/tools/servers", { name: "bad", url: "ftp://example.com" })).statusCode).toBe(400);
    const other = await app.t.loginAsNewUser();
    expect((await app.call("GET", "/api/tools/servers", undefined, other.cookie)).json()).toEqual({ servers: [] });
    expect(serverNamed((await app.call("GET", "/api/tools", undefined, other.cookie)).json(), "everything")).toBeUndefined();
    expect((await app.call("DELETE", `/api/tools/servers/${id}`, undefined, other.cookie)).statusCode).toBe(404);

    // Not trusted yet: the server's readOnlyHint does not spare a card, and the card says what the server claims.
    const listing = (await app.call("GET", "/api/tools")).json();
    expect(serverNamed(listing, "everything")).toMatchObject({ id, source: "user", url: server.url, state: "connected", trusted: false });
    expect(toolNamed(listing, "everything", "echo")).toMatchObject({ readOnly: false, ask: true, annotations: { readOnlyHint: true } });
    gemini.script({ functionCalls: [{ name: "everything__echo", args: { message: "hello" } }] }, { text: "It said hello." });
    const running = app.turn("Echo hello");
    const [card] = await until(
      () => app.call("GET", "/api/approvals").then((response) => response.json().approvals),
      (list: any[]) => list.length > 0,
      "the card",
    );
    expect(card.hints).toEqual(
      annotationsInWords({ readOnlyHint: true, idempotentHint: true, openWorldHint: false }).map((hint) => `everything says: ${hint}`),
    );
    await app.call("POST", `/api/approvals/${card.approvalId}`, { approved: true });
    expect(events((await running).body).find(([event]) => event === "tool-result")![1].result).toEqual({ success: true, result: "Echo: hello" });

    expect((await app.call("PATCH", `/api/tools/servers/${id}`, { trusted: true })).json()).toEqual({ id, trusted: true });
    expect(toolNamed((await app.call("GET", "/api/tools")).json(), "everything", "echo")).toMatchObject({ readOnly: true, ask: false });
    gemini.script({ functionCalls: [{ name: "everything__echo", args: { message: "again" } }] }, { text: "Again." });
    expect(events((await app.turn("Echo again")).body).map(([event]) => event)).not.toContain("approval-required");

    expect((await app.call("DELETE", `/api/tools/servers/${id}`)).json()).toEqual({ ok: true });
    expect((await app.call("GET", "/api/tools/servers")).json()).toEqual({ servers: [] });
    expect(serverNamed((await app.call("GET", "/api/tools")).json(), "everything")).toBeUndefined();
    expect((await app.call("DELETE", `/api/tools/servers/${id}`)).statusCode).toBe(404);
  });

  it("Stop cancels a call in flight at the server (notifications/cancelled)", async () => {
    // With sessions: a stateless server makes a new server for each request, which knows no call to cancel.
    const remote = await startMcpHttpServer({ token: "t", mode: "sessions" });
    const stoppable = await appWith({ slow: { url: remote.url, headers: { Authorization: "Bearer t" } } });
    try {
      gemini.script({ functionCalls: [{ name: "slow__wait", args: { ms: 60_000 } }] }, { text: "unreachable" });
      const address = await stoppable.t.app.listen({ port: 0, host: "127.0.0.1" });
      const controller = new AbortController();
      const response = await fetch(`${address}/api/conversations/${await stoppable.newConversation()}/turn`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: stoppable.cookie },
        body: JSON.stringify({ content: "Wait a minute" }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let received = "";
      while (!received.includes("event: tool-call")) received += new TextDecoder().decode((await reader.read()).value);
      await until(
        async () => remote.calls,
        (calls) => calls.includes("wait"),
        "the call to reach the server",
      );
      controller.abort();
      await until(
        async () => remote.calls,
        (calls) => calls.includes("cancelled wait"),
        "the server to hear the call was cancelled",
      );
    } finally {
      await stoppable.t.close();
      await remote.close();
    }
  });
});
