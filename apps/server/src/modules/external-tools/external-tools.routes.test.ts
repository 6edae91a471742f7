import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EXTERNAL_TOOL_TEXTS } from "@sage/contracts/external-tools";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startMcpHttpServer } from "@sage/testkit/mcp-http-test-server";
import { mcpTestServerEntry } from "@sage/testkit/mcp-test-server-entry";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents as events } from "../../test/turn-events.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

let t: TestApp;
let cookie: string;
let conversationId: number;
let temp: ReturnType<typeof makeTempDir>;
let notesDir: string;

async function start(servers: Record<string, unknown>, env: Record<string, string> = {}) {
  const configPath = path.join(temp.dir, "mcp.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
  t = await createTestApp({
    env: {
      GEMINI_API_KEY: "mcp-key",
      GEMINI_BASE_URL: gemini.baseUrl,
      SAGE_EMBEDDER: "none",
      SAGE_MCP_CONFIG: configPath,
      SAGE_MCP_TIMEOUT_MS: "15000",
      ...env,
    },
  });
  cookie = await t.login();
  conversationId = (await t.app.inject({ method: "POST", url: "/api/conversations", payload: { name: "Tools" }, headers: { cookie } })).json().id;
}

beforeEach(() => {
  gemini.reset();
  temp = makeTempDir();
  notesDir = path.join(temp.dir, "notes");
});
afterEach(async () => {
  await t?.close();
  temp.remove();
});

const turn = (content: string) => t.app.inject({ method: "POST", url: `/api/conversations/${conversationId}/turn`, payload: { content }, headers: { cookie } });
const tools = async (as = cookie) => (await t.app.inject({ method: "GET", url: "/api/tools", headers: { cookie: as } })).json();
/** The listing once no server is still starting (a tsx start takes seconds on a busy machine). */
async function startedTools(as = cookie) {
  await expect.poll(async () => (await tools(as)).servers.some((server: any) => server.state === "starting"), { interval: 200 }).toBe(false);
  return tools(as);
}
const modelCalls = () => gemini.requests.filter((request) => request.action === "streamGenerateContent");
/** What the model was given back for its call, in the follow-up request. */
const functionResponse = () =>
  modelCalls()
    .at(-1)!
    .body.contents.flatMap((content: any) => content.parts)
    .find((part: any) => part.functionResponse)?.functionResponse.response.content;
const answer = (approvalId: string, approved: boolean, as = cookie) =>
  t.app.inject({ method: "POST", url: `/api/approvals/${approvalId}`, payload: { approved }, headers: { cookie: as } });

async function waitForApproval(): Promise<{ approvalId: string; name: string; args: Record<string, unknown> }> {
  for (let i = 0; i < 400; i++) {
    const { approvals } = (await t.app.inject({ method: "GET", url: "/api/approvals", headers: { cookie } })).json();
    if (approvals.length > 0) return approvals[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval was asked for");
}

// Each test starts real MCP server processes; on a busy machine a start takes seconds.
describe("external tools over MCP", () => {
  it("offers the servers' tools as <server>__<tool> next to SAGE's own, and runs a read-only one without asking", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir }) });
    mkdirSync(notesDir, { recursive: true });
    writeFileSync(path.join(notesDir, "plan.txt"), "Board meeting on Thursday");
    gemini.script({ functionCalls: [{ name: "notes__read_note", args: { name: "plan" } }] }, { text: "Your plan: board meeting on Thursday." });
    const received = events((await turn("What is in my plan note?")).body);
    const names = received.map(([event]) => event);
    expect(names.slice(0, 3)).toEqual(["user-message", "tool-call", "tool-result"]);
    expect(names.at(-1)).toBe("done");
    expect(names).not.toContain("approval-required");
    const declared = modelCalls()[0]!.body.tools[0].functionDeclarations.map((declaration: any) => declaration.name);
    expect(declared).toEqual([
      "createReminder",
      "searchDocuments",
      "performWebSearch",
      "research",
      "saveMemory",
      "listFolder",
      "readFile",
      "appendToNote",
      "deleteFile",
      "shareFile",
      "scheduleTask",
      "listCommitments",
      "createDocument",
      "reviseDocument",
      "readDocumentDraft",
      "lookupPerson",
      "notes__read_note",
      "notes__write_note",
      "notes__add_note",
    ]);
    expect(received.find(([event]) => event === "tool-result")![1]).toMatchObject({
      name: "notes__read_note",
      result: { success: true, result: "Board meeting on Thursday" },
    });
    expect(functionResponse()).toMatchObject({ success: true, result: "Board meeting on Thursday" });
    expect(received.at(-1)![1].messages.at(-1).content).toBe("Your plan: board meeting on Thursday.");
  });

  it("asks before a tool that changes something, and runs it once the user approves", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir }) });
    gemini.script({ functionCalls: [{ name: "notes__write_note", args: { name: "todo", text: "Call the chief of staff" } }] }, { text: "Saved." });
    const running = turn("Note: call the chief of staff");
    const approval = await waitForApproval();
    expect(approval).toMatchObject({ name: "notes__write_note", args: { name: "todo", text: "Call the chief of staff" } });
    expect(existsSync(path.join(notesDir, "todo.txt"))).toBe(false); // nothing runs before the answer
    const other = await t.loginAsNewUser();
    expect((await answer(approval.approvalId, true, other.cookie)).statusCode).toBe(404); // only the owner answers
    expect((await answer(approval.approvalId, true)).statusCode).toBe(200);
    const received = events((await running).body);
    expect(received.find(([event]) => event === "approval-required")![1]).toEqual(approval);
    expect(readFileSync(path.join(notesDir, "todo.txt"), "utf8")).toBe("Call the chief of staff");
    expect(functionResponse()).toMatchObject({ success: true, result: "Saved note todo" });
    expect((await answer(approval.approvalId, true)).statusCode).toBe(404); // answered once
  });

  it("tells the model the user declined, and runs nothing", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir }) });
    gemini.script({ functionCalls: [{ name: "notes__write_note", args: { name: "todo", text: "x" } }] }, { text: "Understood, I did not save it." });
    const running = turn("Save a note");
    const approval = await waitForApproval();
    expect((await answer(approval.approvalId, false)).json()).toEqual({ approvalId: approval.approvalId, approved: false });
    const received = events((await running).body);
    expect(existsSync(path.join(notesDir, "todo.txt"))).toBe(false);
    expect(functionResponse()).toMatchObject({ success: false, message: EXTERNAL_TOOL_TEXTS.declined });
    expect(received.at(-1)![1].messages.at(-1).content).toBe("Understood, I did not save it.");
  });

  it("an unanswered approval times out and the model hears so", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir }) }, { SAGE_MCP_APPROVAL_TIMEOUT_MS: "300" });
    gemini.script({ functionCalls: [{ name: "notes__write_note", args: { name: "todo", text: "x" } }] }, { text: "No answer, so I left it." });
    await turn("Save a note");
    expect(existsSync(path.join(notesDir, "todo.txt"))).toBe(false);
    expect(functionResponse()).toMatchObject({ success: false, message: EXTERNAL_TOOL_TEXTS.approvalTimedOut });
  });

  it("a user who switched Ask before running off is not asked; a disabled tool is not offered", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir }) });
    await startedTools();
    const patch = (payload: object) => t.app.inject({ method: "PATCH", url: "/api/tools/settings", payload, headers: { cookie } });
    expect((await patch({ server: "notes", tool: "add_note", ask: false })).statusCode).toBe(200);
    // A tool its server calls destructive always asks (decision 080).
    const destructive = await patch({ server: "notes", tool: "write_note", ask: false });
    expect(destructive.statusCode).toBe(400);
    expect(destructive.json().error).toBe(EXTERNAL_TOOL_TEXTS.alwaysAsks);
    const disabled = await patch({ server: "notes", tool: "read_note", enabled: false });
    expect(disabled.json().servers[0].tools.find((tool: any) => tool.name === "read_note")).toMatchObject({ enabled: false, ask: false, readOnly: true });
    expect((await patch({ server: "nowhere", tool: "x", enabled: false })).statusCode).toBe(404);
    expect((await patch({ server: "notes", tool: "x" })).statusCode).toBe(400);
    gemini.script({ functionCalls: [{ name: "notes__add_note", args: { name: "quick", text: "no question asked" } }] }, { text: "Saved." });
    const received = events((await turn("Save it")).body);
    expect(received.map(([event]) => event)).not.toContain("approval-required");
    expect(readFileSync(path.join(notesDir, "quick.txt"), "utf8")).toBe("no question asked");
    const declared = modelCalls()[0]!.body.tools[0].functionDeclarations.map((declaration: any) => declaration.name);
    expect(declared).not.toContain("notes__read_note");
    // Another user keeps the defaults.
    const other = await t.loginAsNewUser();
    expect((await startedTools(other.cookie)).servers[0].tools.map((tool: any) => [tool.name, tool.enabled, tool.ask])).toEqual([
      ["read_note", true, false],
      ["write_note", true, true],
      ["add_note", true, true],
    ]);
  });

  it("a server that crashes mid-call fails only that call, with a clear tool error, and is restarted", async () => {
    await start({ faulty: mcpTestServerEntry({ notesDir, faults: true }), notes: mcpTestServerEntry({ notesDir }) });
    gemini.script({ functionCalls: [{ name: "faulty__crash", args: {} }] }, { text: "That tool failed." });
    const received = events((await turn("Crash it")).body);
    const result = received.find(([event]) => event === "tool-result")![1].result;
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^The tool server "faulty" failed: /);
    expect(received.at(-1)![1].messages.at(-1).content).toBe("That tool failed.");
    // SAGE and the other server carry on; the crashed server comes back after its back-off.
    gemini.script({ functionCalls: [{ name: "notes__read_note", args: { name: "none" } }] }, { text: "Nothing there." });
    events((await turn("Read a note")).body);
    expect(functionResponse()).toMatchObject({ success: true, result: "No note named none" });
    await expect.poll(async () => (await tools()).servers.find((server: any) => server.name === "faulty").state, { interval: 250 }).toBe("connected");
  });

  it("a server that never answers fails its call at the time limit; a long result is cut before the model sees it", async () => {
    await start({ faulty: mcpTestServerEntry({ notesDir, faults: true }) }, { SAGE_MCP_TIMEOUT_MS: "8000", SAGE_MCP_MAX_RESULT_CHARS: "1000" });
    await startedTools(); // started before the clock matters
    gemini.script({ functionCalls: [{ name: "faulty__hang", args: {} }] }, { text: "It did not answer." });
    const received = events((await turn("Hang")).body);
    expect(received.find(([event]) => event === "tool-result")![1].result).toEqual({
      success: false,
      error: EXTERNAL_TOOL_TEXTS.serverFailed("faulty", "did not answer within 8 s"),
    });
    // The server that let the call hang is restarted on its next use.
    expect((await startedTools()).servers[0].state).toBe("connected");
    gemini.script({ functionCalls: [{ name: "faulty__big", args: {} }] }, { text: "Long." });
    await turn("Big");
    const big = functionResponse();
    expect(big.success).toBe(true);
    expect(big.result).toBe("x".repeat(1000) + EXTERNAL_TOOL_TEXTS.truncated(1000, 100_000));
  });

  it("a server that prints garbage fails only its own calls: noise mid-call is skipped, a program that never speaks MCP is shown failed", async () => {
    const pidFile = path.join(temp.dir, "noisy.pid");
    const noisy = {
      command: process.execPath,
      args: [
        "-e",
        `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => console.log("hello, this is not MCP {"), 50)`,
      ],
    };
    await start({ faulty: mcpTestServerEntry({ notesDir, faults: true }), noisy, notes: mcpTestServerEntry({ notesDir }) }, { SAGE_MCP_TIMEOUT_MS: "6000" });
    const { servers } = await startedTools();
    expect(servers.map((server: any) => [server.name, server.state])).toEqual([
      ["faulty", "connected"],
      ["noisy", "failed"],
      ["notes", "connected"],
    ]);
    expect(servers[1].error).toMatch(/did not start within 6 s/);
    // The program that never spoke MCP is not left running.
    const alive = () => {
      try {
        process.kill(Number(readFileSync(pidFile, "utf8")), 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(alive, { interval: 100 }).toBe(false);
    gemini.script({ functionCalls: [{ name: "faulty__garbage", args: {} }] }, { text: "It answered." });
    const received = events((await turn("Make noise")).body);
    expect(received.at(-1)![0]).toBe("done");
    expect(functionResponse()).toEqual({ success: true, result: "answered after the noise" });
    gemini.script({ functionCalls: [{ name: "notes__read_note", args: { name: "none" } }] }, { text: "Nothing there." });
    // In a conversation of its own: the garbage tool's answer in this one's history would make the call ask (issue 47).
    conversationId = (await t.app.inject({ method: "POST", url: "/api/conversations", payload: { name: "Again" }, headers: { cookie } })).json().id;
    await turn("Read a note");
    expect(functionResponse()).toMatchObject({ success: true, result: "No note named none" });
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("a bad entry is shown with its error while the other servers work", async () => {
    await start({ broken: { args: ["--nothing"] }, missing: { command: path.join(temp.dir, "no-such-program") }, notes: mcpTestServerEntry({ notesDir }) });
    const { servers } = await startedTools();
    expect(servers.map((server: any) => [server.name, server.state])).toEqual([
      ["broken", "failed"],
      ["missing", "failed"],
      ["notes", "connected"],
    ]);
    expect(servers[0].error).toMatch(/^Invalid server entry: needs "command"/);
    expect(servers[1].error).toBe(`Program not found: ${path.join(temp.dir, "no-such-program")}`);
    expect(servers[2].tools.map((tool: any) => [tool.name, tool.modelName, tool.description, tool.readOnly])).toEqual([
      ["read_note", "notes__read_note", "Read a note by name", true],
      ["write_note", "notes__write_note", "Write a note (replaces one with the same name)", false],
      ["add_note", "notes__add_note", "Add a note (never replaces one)", false],
    ]);
    gemini.script({ functionCalls: [{ name: "notes__read_note", args: { name: "x" } }] }, { text: "Done." });
    await turn("Read");
    expect(functionResponse()).toMatchObject({ success: true });
  });

  it("reaches a server over Streamable HTTP, with the configured headers", async () => {
    const remote = await startMcpHttpServer({ token: "secret-token" });
    try {
      await start({ remote: { url: remote.url, headers: { Authorization: "Bearer secret-token" } }, refused: { url: remote.url } });
      const { servers } = await startedTools();
      expect(servers.map((server: any) => [server.name, server.transport, server.state])).toEqual([
        ["remote", "http", "connected"],
        ["refused", "http", "failed"],
      ]);
      const common = { server: "remote", serverId: "config:remote", readOnly: true, enabled: true, ask: false, alwaysAsks: false, structuredOutput: false };
      expect(servers[0].tools).toEqual([
        { name: "echo", modelName: "remote__echo", description: "Echo the text back", annotations: { readOnlyHint: true }, ...common },
        { name: "wait", modelName: "remote__wait", description: "Answer after a while", annotations: { readOnlyHint: true }, ...common },
      ]);
      gemini.script({ functionCalls: [{ name: "remote__echo", args: { text: "hello" } }] }, { text: "It echoed." });
      await turn("Echo hello");
      expect(functionResponse()).toEqual({ success: true, result: "echo: hello" });
    } finally {
      await remote.close();
    }
  });

  it("a server that cannot start shows the first line of its program's error, not Node's version line", async () => {
    const script = path.join(temp.dir, "missing-server.js");
    await start({ gone: { command: process.execPath, args: [script] } });
    const { servers } = await startedTools();
    expect(servers[0]).toMatchObject({
      name: "gone",
      state: "failed",
      error: `The program stopped before it was ready: Error: Cannot find module '${script}'`,
    });
  });

  it("tools whose schemas use $ref, allOf, oneOf and anyOf reach Gemini in a form it takes; one it cannot describe is left out, with a warning", async () => {
    await start({ notes: mcpTestServerEntry({ notesDir, schemas: true }) });
    const { servers } = await startedTools();
    const listed = Object.fromEntries(servers[0].tools.map((tool: any) => [tool.name, tool]));
    expect(listed.plan_meeting.warning).toBeUndefined();
    expect(listed.outline).toMatchObject({
      enabled: true,
      warning: "Gemini cannot use this tool, so chats leave it out: its input refers to itself without end, which Gemini cannot describe.",
      warningDetail: 'Recursive $ref "#/$defs/node" at properties.root.properties.children.items',
    });
    const args = { organizer: { name: "Ada" }, when: { day: "2030-01-02" }, labels: '{"team":"board"}' };
    gemini.script({ functionCalls: [{ name: "notes__plan_meeting", args }] }, { text: "Planned." });
    const received = events((await turn("Plan the board meeting")).body);
    expect(received.at(-1)![0]).toBe("done");
    const declared = modelCalls()[0]!.body.tools[0].functionDeclarations.map((declaration: any) => declaration.name);
    expect(declared).toContain("notes__plan_meeting");
    expect(declared).not.toContain("notes__outline");
    // The server got the map the model wrote as JSON text as an object, as its schema asks.
    expect(JSON.parse(functionResponse().result)).toEqual({ ...args, labels: { team: "board" } });
    expect(received.at(-1)![1].messages.at(-1).content).toBe("Planned.");
  });

  it("a server over HTTP that dies mid-call fails that call at once, naming Streamable HTTP, not at the time limit", async () => {
    const remote = await startMcpHttpServer({ token: "t" });
    try {
      await start({ remote: { url: remote.url, headers: { Authorization: "Bearer t" } } }, { SAGE_MCP_TIMEOUT_MS: "60000" });
      await startedTools();
      gemini.script({ functionCalls: [{ name: "remote__wait", args: { ms: 120_000 } }] }, { text: "It stopped." });
      const running = turn("Wait a while");
      await expect.poll(() => remote.calls, { interval: 50 }).toEqual(["wait"]);
      await remote.close();
      const received = events((await running).body);
      expect(received.find(([event]) => event === "tool-result")![1].result).toEqual({
        success: false,
        error: EXTERNAL_TOOL_TEXTS.serverFailed("remote", "The server stopped (Streamable HTTP: connection refused)"),
      });
      const server = (await tools()).servers[0];
      expect(server.state).toBe("failed");
      expect(server.error).toMatch(/Streamable HTTP: connection refused/); // a restart that fails says so too, never "SSE"
    } finally {
      await remote.close();
    }
  });

  it("a server over HTTP that keeps a stream open is shown stopped as soon as it dies, as a program over stdio is", async () => {
    const remote = await startMcpHttpServer({ token: "t", mode: "sessions" });
    await start({ remote: { url: remote.url, headers: { Authorization: "Bearer t" } } }, { SAGE_MCP_TIMEOUT_MS: "60000" });
    expect((await startedTools()).servers[0].state).toBe("connected");
    await remote.close();
    await expect.poll(async () => (await tools()).servers[0].state, { interval: 100 }).toBe("failed");
    expect((await tools()).servers[0].error).toMatch(
      /^(The server stopped \(Streamable HTTP: connection refused\)|Could not connect over Streamable HTTP: connection refused)$/,
    );
  });

  it("reaches an older server over HTTP with SSE, and names that transport when the server dies", async () => {
    const remote = await startMcpHttpServer({ token: "t", mode: "sse" });
    await start({ remote: { url: remote.url, headers: { Authorization: "Bearer t" } } }, { SAGE_MCP_TIMEOUT_MS: "60000" });
    expect((await startedTools()).servers[0].state).toBe("connected");
    gemini.script({ functionCalls: [{ name: "remote__echo", args: { text: "old" } }] }, { text: "Echoed." });
    await turn("Echo");
    expect(functionResponse()).toEqual({ success: true, result: "echo: old" });
    await remote.close();
    await expect.poll(async () => (await tools()).servers[0].state, { interval: 100 }).toBe("failed");
    expect((await tools()).servers[0].error).toMatch(
      /^(The server stopped \(HTTP with SSE: connection refused\)|Could not connect over HTTP with SSE: connection refused)$/,
    );
  });

  it("a file that is not JSON leaves SAGE working with no external tools, and says why", async () => {
    await start({});
    writeFileSync(t.config.mcp.configPath, "{ not json");
    const app = await t.reopen();
    try {
      const response = await app.inject({ method: "GET", url: "/api/tools", headers: { cookie } });
      expect(response.json().servers).toEqual([]);
      expect(response.json().error).toMatch(/is not valid JSON/);
    } finally {
      await app.close();
    }
  });

  it("the tools and approvals API needs a session, and answers nothing it does not know", async () => {
    await start({});
    expect((await t.app.inject({ method: "GET", url: "/api/tools" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/approvals/abc", payload: { approved: true } })).statusCode).toBe(401);
    const unknown = await answer("abc", true);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: EXTERNAL_TOOL_TEXTS.approvalNotFound, code: "approval_not_found" });
    expect((await t.app.inject({ method: "POST", url: "/api/approvals/abc", payload: { approved: "yes" }, headers: { cookie } })).statusCode).toBe(400);
  });
});
