import { afterEach, describe, expect, it, vi } from "vitest";
import { createChatService, type ChatServiceDeps } from "./chat-service";
import { CHAT_TEXTS } from "./chat-texts";

type Handler = (body: any, init: RequestInit) => Response | Promise<Response>;

const json = (data: unknown, status = 200, statusText = "OK") =>
  new Response(JSON.stringify(data), { status, statusText, headers: { "content-type": "application/json" } });
const text = (body: string, status: number, statusText: string) => new Response(body, { status, statusText });
const sse = (...events: [string, unknown][]) =>
  new Response(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });
/** A streamed reply: one text-delta per word, then finish. */
const streamed = (response: string, functionCalls: { name: string; args: Record<string, unknown> }[] = []) =>
  sse(...(response.match(/\S+\s*/g) ?? []).map((delta): [string, unknown] => ["text-delta", { delta }]), ["finish", { response, functionCalls }]);

/** A fake server: per path a queue of handlers (the last one repeats); every call recorded. */
function fakeServer(routes: Record<string, Handler[]>) {
  const calls: { path: string; body: any }[] = [];
  let savedId = 0;
  const saved: any[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    const key = Object.keys(routes).find((route) => path === route) ?? (path.endsWith("/messages") ? "save" : undefined);
    const queue = key ? routes[key] : undefined;
    if (!queue) {
      if (path.endsWith("/messages")) {
        saved.push({ id: ++savedId, conversationId: 7, role: body.role, content: body.content, createdAt: "2025-03-05T00:00:00.000Z" });
        return json(saved);
      }
      if (path === "/api/search") return json([]);
      throw new Error(`unexpected call ${path}`);
    }
    const handler = (queue.length > 1 ? queue.shift() : queue[0])!;
    return handler(body, init);
  });
  return { calls, fetchImpl: fetchImpl as unknown as typeof fetch, saved, callsTo: (path: string): any[] => calls.filter((call) => call.path === path) };
}

afterEach(() => vi.unstubAllGlobals());

function setup(routes: Record<string, Handler[]>, extra: Partial<ChatServiceDeps> = {}) {
  const server = fakeServer(routes);
  const notify = vi.fn();
  const dispatchEvent = vi.fn();
  const log = { warn: vi.fn(), error: vi.fn() };
  vi.stubGlobal("fetch", server.fetchImpl);
  const service = createChatService({ notify, dispatchEvent, log, ...extra });
  return { server, notify, dispatchEvent, log, service };
}

describe("step 1: knowledge context", () => {
  it("appends up to 3 snippets with their source (default 'Knowledge Base') to the message sent", async () => {
    const { server, service } = setup({
      "/api/search": [() => json([{ content: "Alpha fact", score: 0.9, metadata: { filename: "alpha.pdf", source: "alpha.pdf" } }, { content: "Beta fact", score: 0.5, metadata: { filename: "", source: "" } }])],
      "/api/gemini/chat": [() => streamed("Answer")],
    });
    await service.sendMessage("7", "Tell me");
    expect(server.callsTo("/api/search")[0].body).toEqual({ query: "Tell me", limit: 3, conversationId: 7 });
    const sent = server.callsTo("/api/gemini/chat")[0].body.messages.at(-1);
    expect(sent.role).toBe("user");
    expect(sent.content).toMatch(/^Tell me\n\n/);
    expect(sent.content).toContain("Source: alpha.pdf\nAlpha fact");
    expect(sent.content).toContain("Source: Knowledge Base\nBeta fact");
  });

  it("silently sends no context when the search fails or throws", async () => {
    for (const failure of [() => text("boom", 500, "Internal Server Error"), () => Promise.reject(new TypeError("Failed to fetch"))]) {
      const { server, service } = setup({ "/api/search": [failure as Handler], "/api/gemini/chat": [() => streamed("Fine")] });
      expect(await service.sendMessage("7", "Plain question")).toEqual(["Fine"]);
      expect(server.callsTo("/api/gemini/chat")[0].body.messages.at(-1).content).toBe("Plain question");
    }
  });
});

describe("steps 2, 4, 5: the chat call", () => {
  it("posts history plus the new message, model, persona and the three tools, streaming progress", async () => {
    const { server, service } = setup({ "/api/gemini/chat": [() => streamed("Hello there friend")] }, { model: () => "gemini-2.0-flash" });
    service.initializeChat([{ role: "user", content: "Earlier" }, { role: "model", content: "Before" }]);
    const progress: string[][] = [];
    const texts = await service.sendMessage("7", "Hi", { onProgress: (current) => progress.push(current) });
    expect(texts).toEqual(["Hello there friend"]);
    const body = server.callsTo("/api/gemini/chat")[0].body;
    expect(body.messages).toEqual([{ role: "user", content: "Earlier" }, { role: "model", content: "Before" }, { role: "user", content: "Hi" }]);
    expect(body.model).toBe("gemini-2.0-flash");
    expect(body.stream).toBe(true);
    expect(body.systemInstruction).toContain("SAGE");
    expect(body.systemInstruction).toMatch(/confirm/);
    expect(body.systemInstruction).toMatch(/returns nothing, run performWebSearch automatically, in English, without asking/);
    expect(body.tools[0].functionDeclarations.map((d: any) => d.name)).toEqual(["createReminder", "searchDocuments", "performWebSearch"]);
    expect(progress[0]).toEqual(["Hello "]);
    expect(progress.some((current) => current[0] === "Hello there ")).toBe(true);
    expect(service.getHistory().slice(-2)).toEqual([{ role: "user", content: "Hi" }, { role: "model", content: "Hello there friend" }]);
  });

  it("answers 'No response generated' for an empty reply without a function call", async () => {
    const { service } = setup({ "/api/gemini/chat": [() => streamed("")] });
    expect(await service.sendMessage("7", "Hi")).toEqual(["No response generated"]);
  });

  it("throws 'Gemini API error: {status} {statusText}' on an HTTP failure and on a stream error event", async () => {
    const http = setup({ "/api/gemini/chat": [() => text("", 502, "Bad Gateway")] });
    await expect(http.service.sendMessage("7", "Hi")).rejects.toThrow("Gemini API error: 502 Bad Gateway");
    const streamError = setup({ "/api/gemini/chat": [() => sse(["text-delta", { delta: "Par" }], ["error", { error: "x", code: "model_error", status: 502, statusText: "Bad Gateway" }])] });
    await expect(streamError.service.sendMessage("7", "Hi")).rejects.toThrow("Gemini API error: 502 Bad Gateway");
    expect(http.service.getHistory()).toEqual([]);
  });

  it("initializeChat replaces the history", async () => {
    const { service } = setup({ "/api/gemini/chat": [() => streamed("x")] });
    await service.sendMessage("7", "one");
    service.initializeChat([{ role: "user", content: "only" }]);
    expect(service.getHistory()).toEqual([{ role: "user", content: "only" }]);
  });
});

describe("step 3: function calls", () => {
  const reminderCall = { name: "createReminder", args: { title: "Call Ann", dueDate: "2030-01-02", priority: "high", conversationId: "999" } };

  it("runs only the first call, injects the conversation id, fires 'reminderCreated' with a toast, and shows reply and follow-up separately", async () => {
    const created = { id: 5, title: "Call Ann" };
    const { server, service, dispatchEvent, notify } = setup({
      "/api/gemini/chat": [() => streamed("Setting it up.", [reminderCall, { name: "performWebSearch", args: { query: "x" } }])],
      "/api/reminders": [() => json(created, 201, "Created")],
      "/api/gemini/function-response": [() => streamed("Your reminder is set.")],
    });
    const texts = await service.sendMessage("7", "Remind me");
    expect(texts).toEqual(["Setting it up.", "Your reminder is set."]);
    expect(server.callsTo("/api/reminders")[0].body).toEqual({ title: "Call Ann", description: "", dueDate: "2030-01-02", priority: "high", type: "reminder", status: "unread", conversationId: 7 });
    expect(server.callsTo("/api/gemini/web-search")).toHaveLength(0);
    const event = dispatchEvent.mock.calls[0]![0] as CustomEvent;
    expect(event.type).toBe("reminderCreated");
    expect(event.detail).toEqual(created);
    expect(notify).toHaveBeenCalledWith({ title: "New reminder created", description: "A new reminder was created by SAGE" });
    const follow = server.callsTo("/api/gemini/function-response")[0].body;
    expect(follow.functionResponse).toEqual({ name: "createReminder", args: reminderCall.args, response: { success: true, reminder: created } });
    expect(service.getHistory().slice(-2).map((entry) => entry.content)).toEqual(["Setting it up.", "Your reminder is set."]);
  });

  it("reads a non-JSON reminder answer as a message", async () => {
    const { server, service, dispatchEvent } = setup({
      "/api/gemini/chat": [() => streamed("", [reminderCall])],
      "/api/reminders": [() => text("created ok", 201, "Created")],
      "/api/gemini/function-response": [() => streamed("Done")],
    });
    await service.sendMessage("7", "Remind me");
    expect((dispatchEvent.mock.calls[0]![0] as CustomEvent).detail).toEqual({ message: "created ok" });
    expect(server.callsTo("/api/gemini/function-response")[0].body.functionResponse.response.reminder).toEqual({ message: "created ok" });
  });

  it("raises 'Invalid conversationId provided' for a non-numeric conversation and tells the model", async () => {
    const { server, service, notify } = setup({ "/api/gemini/chat": [() => streamed("", [reminderCall])], "/api/gemini/function-response": [() => streamed("Sorry")] });
    await service.sendMessage("new", "Remind me");
    expect(server.callsTo("/api/reminders")).toHaveLength(0);
    expect(server.callsTo("/api/gemini/function-response")[0].body.functionResponse.response).toEqual({ success: false, error: "Invalid conversationId provided" });
    expect(notify).toHaveBeenCalledWith({ title: "Error", description: "Invalid conversationId provided", variant: "destructive" });
  });

  it("reports 'Failed to create reminder: {status} {statusText} - {error}' from the body's error field", async () => {
    const { server, service, dispatchEvent } = setup({
      "/api/gemini/chat": [() => streamed("", [reminderCall])],
      "/api/reminders": [() => json({ error: "Due date is required" }, 400, "Bad Request")],
      "/api/gemini/function-response": [() => streamed("Could not")],
    });
    await service.sendMessage("7", "Remind me");
    expect(server.callsTo("/api/gemini/function-response")[0].body.functionResponse.response.error).toBe("Failed to create reminder: 400 Bad Request - Due date is required");
    expect(dispatchEvent).not.toHaveBeenCalled();
  });

  describe("searchDocuments", () => {
    const run = async (search: Handler | undefined, args: Record<string, unknown> = { query: "budget" }) => {
      const routes: Record<string, Handler[]> = {
        "/api/gemini/chat": [() => streamed("", [{ name: "searchDocuments", args }])],
        "/api/gemini/function-response": [() => streamed("Here is what I found.")],
      };
      // The context fetch (limit 3) answers nothing; the tool's search (limit 5) uses `search`.
      routes["/api/search"] = [() => json([]), ...(search ? [search] : [])];
      const { server, service } = setup(routes);
      await service.sendMessage("7", "Find budget");
      return { server, result: server.callsTo("/api/gemini/function-response")[0].body.functionResponse.response };
    };

    it("searches with limit 5 and reports the count", async () => {
      const { server, result } = await run(() => json([{ content: "a", score: 0.9, metadata: { filename: "a", source: "p1" } }]));
      expect(server.callsTo("/api/search")[1].body).toEqual({ query: "budget", limit: 5, conversationId: 7 });
      expect(result.message).toBe("Found 1 relevant document(s).");
      expect(result.results).toHaveLength(1);
    });
    it("no results", async () => expect((await run(() => json([]))).result).toEqual({ results: [], message: "No relevant documents found for this query." }));
    it("HTTP failure", async () => expect((await run(() => text("", 503, "Service Unavailable"))).result).toEqual({ results: [], message: "Search error: 503 Service Unavailable" }));
    it("exception", async () => expect((await run(() => Promise.reject(new TypeError("Failed to fetch")))).result).toEqual({ results: [], message: "Search error: Failed to fetch" }));
    it("non-Error exception", async () => expect((await run(() => Promise.reject("weird"))).result).toEqual({ results: [], message: "Unknown error" }));
    it("blank query makes no call", async () => {
      const { server, result } = await run(undefined, { query: "  " });
      expect(result).toEqual({ results: [], message: "No search query provided." });
      expect(server.callsTo("/api/search")).toHaveLength(1);
    });
  });

  describe("performWebSearch", () => {
    const run = async (search: Handler | undefined, args: Record<string, unknown> = { query: "news" }, followUp: Handler = () => streamed("Latest news.")) => {
      const routes: Record<string, Handler[]> = {
        "/api/gemini/chat": [() => streamed("", [{ name: "performWebSearch", args }])],
        "/api/gemini/function-response": [followUp],
      };
      if (search) routes["/api/gemini/web-search"] = [search];
      const { server, service } = setup(routes);
      const texts = await service.sendMessage("7", "What's new?");
      return { server, texts, result: server.callsTo("/api/gemini/function-response")[0].body.functionResponse.response };
    };

    it("passes the answer and sources to the model and lists the sources as links under the answer", async () => {
      const { texts, result } = await run(() => json({ response: "R", groundingData: "1. A\n   https://a.example/", sources: [{ title: "A", url: "https://a.example/" }] }));
      expect(result).toEqual({ success: true, message: "Search completed successfully", response: "R", groundingData: "1. A\n   https://a.example/", sources: [{ title: "A", url: "https://a.example/" }] });
      expect(texts).toEqual(["Latest news.\n\n**Sources:**\n- [A](https://a.example/)"]);
    });
    it("HTTP failure", async () => expect((await run(() => text("", 503, "Service Unavailable"))).result).toEqual({ success: false, message: "Web search error: 503 Service Unavailable" }));
    it("exception", async () => expect((await run(() => Promise.reject(new Error("network down")))).result).toEqual({ success: false, message: "network down" }));
    it("blank query makes no call", async () => {
      const { server, result } = await run(undefined, { query: "" });
      expect(result).toEqual({ success: false, message: "No search query provided." });
      expect(server.callsTo("/api/gemini/web-search")).toHaveLength(0);
    });
  });

  describe("follow-up fallbacks", () => {
    const run = (followUp: Handler, reply = "Checking.") => {
      const { service } = setup({
        "/api/gemini/chat": [() => streamed(reply, [{ name: "searchDocuments", args: { query: "q" } }])],
        "/api/search": [() => json([])],
        "/api/gemini/function-response": [followUp],
      });
      return service.sendMessage("7", "Find q");
    };
    it("HTTP failure: the reply plus 'I've completed your request to {name in words}.'", async () => {
      expect(await run(() => text("", 500, "Internal Server Error"))).toEqual(["Checking.\n\nI've completed your request to search documents."]);
    });
    it("stream error event counts as a failed follow-up", async () => {
      expect(await run(() => sse(["error", { error: "x", code: "model_error", status: 502, statusText: "Bad Gateway" }]))).toEqual(["Checking.\n\nI've completed your request to search documents."]);
    });
    it("exception: the reply plus the follow-up issue text", async () => {
      expect(await run(() => Promise.reject(new TypeError("Failed to fetch")))).toEqual([
        "Checking.\n\nI've processed your request, but encountered an issue with the follow-up response. The search documents operation was completed successfully.",
      ]);
    });
    it("empty follow-up: '{name} completed successfully'", async () => {
      expect(await run(() => streamed(""))).toEqual(["Checking.", "searchDocuments completed successfully"]);
      expect(await run(() => streamed(""), "")).toEqual(["searchDocuments completed successfully"]);
    });
  });
});

describe("step 6: saving", () => {
  it("saves the user message (without context) and each model message, answering the updated list", async () => {
    const { server, service } = setup({
      "/api/search": [() => json([{ content: "ctx", score: 0.9, metadata: { filename: "f", source: "f" } }])],
      "/api/gemini/chat": [() => streamed("", [{ name: "searchDocuments", args: { query: "q" } }])],
      "/api/gemini/function-response": [() => streamed("Found it.")],
    });
    // Reply is empty, so only the follow-up is a model message.
    const list = await service.sendMessageAndSave("7", "Find q");
    expect(list.map((message) => [message.role, message.content])).toEqual([["user", "Find q"], ["model", "Found it."]]);
    expect(server.calls.filter((call) => call.path === "/api/conversations/7/messages").map((call) => call.body)).toEqual([
      { role: "user", content: "Find q" },
      { role: "model", content: "Found it." },
    ]);
  });

  it("a failed user save only logs a warning and the turn goes on", async () => {
    let first = true;
    const { service, log } = setup({
      "/api/gemini/chat": [() => streamed("Answer")],
      save: [
        (body) => {
          if (first) {
            first = false;
            return text("nope", 500, "Internal Server Error");
          }
          return json([{ id: 2, conversationId: 7, role: body.role, content: body.content, createdAt: "x" }]);
        },
      ],
    });
    const list = await service.sendMessageAndSave("7", "Hi");
    expect(list.map((message) => message.content)).toEqual(["Answer"]);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it("a failed model save is skipped; with none saved the fallback is saved", async () => {
    const saves: any[] = [];
    const { service } = setup({
      "/api/gemini/chat": [() => streamed("Answer")],
      save: [
        (body) => {
          saves.push(body);
          if (body.role === "model" && body.content === "Answer") return text("", 500, "Internal Server Error");
          return json([{ id: saves.length, conversationId: 7, role: body.role, content: body.content, createdAt: "x" }]);
        },
      ],
    });
    const list = await service.sendMessageAndSave("7", "Hi");
    expect(saves.map((body) => body.content)).toEqual(["Hi", "Answer", "Your request was processed successfully."]);
    expect(list.at(-1)!.content).toBe(CHAT_TEXTS.savedFallback);
  });

  it("when sending fails, saves and shows the trouble text and toasts the API error; the user's text is kept", async () => {
    const { server, service, notify } = setup({ "/api/gemini/chat": [() => text("", 502, "Bad Gateway")] });
    const progress: string[][] = [];
    const list = await service.sendMessageAndSave("7", "My important words", { onProgress: (texts) => progress.push(texts) });
    expect(list.map((message) => [message.role, message.content])).toEqual([
      ["user", "My important words"],
      ["model", "I'm having trouble processing your request right now. Your reminder has been created successfully, but I couldn't generate a detailed response."],
    ]);
    expect(progress.at(-1)).toEqual([CHAT_TEXTS.sendFailed]);
    expect(notify).toHaveBeenCalledWith({ title: "Error", description: "Gemini API error: 502 Bad Gateway", variant: "destructive" });
    expect(server.saved[0].content).toBe("My important words");
  });

  it("a total failure returns an empty list", async () => {
    const { service } = setup({ "/api/gemini/chat": [() => streamed("Answer")], save: [() => text("", 500, "Internal Server Error")] });
    expect(await service.sendMessageAndSave("7", "Hi")).toEqual([]);
  });
});

describe("stop", () => {
  it("keeps the text received so far as the reply and runs no function", async () => {
    const controller = new AbortController();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode(`event: text-delta\ndata: ${JSON.stringify({ delta: "Partial answer" })}\n\n`));
        controller.signal.addEventListener("abort", () => stream.error(new DOMException("Aborted", "AbortError")));
      },
    });
    const { server, service } = setup({ "/api/gemini/chat": [() => new Response(body, { headers: { "content-type": "text/event-stream" } })] });
    const texts = await service.sendMessage("7", "Long question", {
      signal: controller.signal,
      onProgress: (current) => {
        if (current[0] === "Partial answer") controller.abort();
      },
    });
    expect(texts).toEqual(["Partial answer"]);
    expect(server.callsTo("/api/gemini/function-response")).toHaveLength(0);
  });
});

describe("history size", () => {
  it("sends at most the last 100 messages and stays under the character budget, always with the new message", async () => {
    const { server, service } = setup({ "/api/gemini/chat": [() => streamed("ok")] });
    service.initializeChat(Array.from({ length: 150 }, (_, index) => ({ role: index % 2 ? "model" : "user", content: `m${index}` })));
    await service.sendMessage("7", "newest");
    const sent = server.callsTo("/api/gemini/chat")[0].body.messages;
    expect(sent).toHaveLength(100);
    expect(sent.at(-1)).toEqual({ role: "user", content: "newest" });
    expect(sent[0].content).toBe("m51");
    expect(service.getHistory()).toHaveLength(152);

    const big = setup({ "/api/gemini/chat": [() => streamed("ok")] });
    big.service.initializeChat([{ role: "user", content: "x".repeat(150_000) }, { role: "model", content: "y".repeat(60_000) }]);
    await big.service.sendMessage("7", "small");
    expect(big.server.callsTo("/api/gemini/chat")[0].body.messages.map((m: { content: string }) => m.content.length)).toEqual([60_000, 5]);
  });
});
