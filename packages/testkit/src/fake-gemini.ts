import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inlineDataErrors } from "./fake-gemini-parts.ts";
import { emptyValue, functionDeclarationErrors, responseSchemaErrors, schemaMismatch } from "./fake-gemini-schema.ts";

/** One scripted model turn. With nothing scripted the fake echoes the last user text. */
export interface FakeReply {
  text?: string;
  /**
   * Structured output: the reply as JSON, for a request with a responseSchema. It must conform to the request's
   * schema (the real API's output always does); a reply that does not is answered 500 naming the mismatch.
   */
  json?: unknown;
  /** Streamed replies send the text in these pieces (default: word by word). */
  chunks?: string[];
  functionCalls?: { name: string; args: Record<string, unknown> }[];
  /** Sources for Google Search grounding. */
  sources?: { title: string; uri: string }[];
  /** Answer with this HTTP error instead. */
  error?: { status: number; message: string };
  /** Wait this long before answering (before each streamed chunk for streams). */
  delayMs?: number;
  /** The candidate's finishReason, as Gemini names it ("MAX_TOKENS": the reply hit the output length limit); default "STOP". */
  finishReason?: "STOP" | "MAX_TOKENS" | "SAFETY" | "RECITATION" | "OTHER";
  /**
   * Only a request whose text (system instruction and contents) contains this answers with the reply: background
   * jobs that ask the model at moments a test does not control (triage, profiles) each take their own.
   */
  match?: string;
  /**
   * Never answer: the request waits until its caller gives up (a Stop closes it). For a step a test looks at while
   * it runs, with no timer that a slow machine could outrun.
   */
  hold?: boolean;
  /**
   * Wait at the gate of this name until the test opens it (`open(name)`): a reply answers only then; a streamed reply
   * sends its first piece and the rest only then. A state stays on screen exactly until the test has seen it, however
   * slow the machine (a `delayMs` that a loaded machine outran failed the research and voice tests).
   */
  gate?: string;
  /**
   * A streamed reply waits at the gate of this name before its first piece (then at `gate`, if any, before the rest):
   * for a state shown only until the first words come, such as "SAGE is typing".
   */
  firstGate?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  model: string;
  action: string;
  apiKey: string | undefined;
  body: any;
  /** A streamed reply's end: "sent" when every piece went out, "cut" when the caller closed the stream first. */
  streamEnd?: Promise<"sent" | "cut">;
}

export interface FakeGemini {
  /** Base URL including the API version, for GEMINI_BASE_URL / the SDK's baseURL. */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  /** Queue replies for the next generateContent / streamGenerateContent calls, in order. */
  script(...replies: FakeReply[]): void;
  /** Lets the replies waiting at this gate answer (and any that reach it later). */
  open(gate: string): void;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deterministic embedding: hashed bag of lower-cased words, L2-normalised, so shared words mean similar vectors. */
export function fakeEmbedding(text: string, dimensions = 768): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash("sha1").update(word).digest();
    const index = digest.readUInt32BE(0) % dimensions;
    // A SHA-1 digest has 20 bytes, and index < dimensions, the length of the filled vector.
    vector[index]! += digest[4]! & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function lastUserText(body: any): string {
  const contents: any[] = body?.contents ?? [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const text = (contents[i]?.parts ?? []).map((part: any) => part.text ?? "").join("");
    if (contents[i]?.role !== "model" && text) return text;
  }
  return "";
}

/** Every text of a request: its system instruction and its contents' parts. */
function requestText(body: any): string {
  const parts = [...(body?.systemInstruction?.parts ?? []), ...(body?.contents ?? []).flatMap((content: any) => content?.parts ?? [])];
  return parts.map((part: any) => part?.text ?? "").join("\n");
}

function candidate(reply: FakeReply, parts: any[], withGrounding: boolean) {
  return {
    content: { role: "model", parts },
    finishReason: reply.finishReason ?? "STOP",
    index: 0,
    ...(withGrounding && reply.sources?.length
      ? {
          groundingMetadata: {
            webSearchQueries: [],
            groundingChunks: reply.sources.map((source) => ({ web: { uri: source.uri, title: source.title } })),
            groundingSupports: [],
          },
        }
      : {}),
  };
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };

/** Starts an HTTP server speaking the Gemini REST API (v1beta) on 127.0.0.1. */
export async function startFakeGemini(options: { port?: number; host?: string } = {}): Promise<FakeGemini> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (name: string) => {
    let entry = gates.get(name);
    if (!entry) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      entry = { opened, open };
      gates.set(name, entry);
    }
    return entry;
  };

  async function readBody(request: IncomingMessage): Promise<any> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const raw = Buffer.concat(parts).toString("utf8");
    return raw ? JSON.parse(raw) : {};
  }

  function send(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://fake");
    const body = request.method === "POST" ? await readBody(request) : {};

    // Control routes, for tests running in another process than the fake.
    if (url.pathname === "/__fake/health") return send(response, 200, { ok: true });
    if (url.pathname === "/__fake/script") {
      queue.push(...((body.replies ?? []) as FakeReply[]));
      return send(response, 200, { queued: queue.length });
    }
    if (url.pathname === "/__fake/open") {
      gate(String(body.gate)).open();
      return send(response, 200, { ok: true });
    }
    if (url.pathname === "/__fake/reset") {
      queue.length = 0;
      requests.length = 0;
      gates.clear();
      return send(response, 200, { ok: true });
    }
    if (url.pathname === "/__fake/requests") return send(response, 200, requests);

    const match = url.pathname.match(/^\/v1beta\/models\/([^/:]+):(\w+)$/);
    if (!match || request.method !== "POST") {
      return send(response, 404, { error: { code: 404, message: `Unknown route ${url.pathname}`, status: "NOT_FOUND" } });
    }
    // Both groups are mandatory in the pattern, so a match has them.
    const model = match[1]!;
    const action = match[2]!;
    const apiKey = (request.headers["x-goog-api-key"] as string | undefined) ?? url.searchParams.get("key") ?? undefined;
    const recorded: RecordedRequest = { method: request.method, path: url.pathname, model, action, apiKey, body };
    requests.push(recorded);

    if (action === "embedContent") {
      const text = (body.content?.parts ?? []).map((part: any) => part.text ?? "").join(" ");
      return send(response, 200, { embedding: { values: fakeEmbedding(text, body.outputDimensionality) } });
    }
    if (action === "batchEmbedContents") {
      const embeddings = (body.requests ?? []).map((item: any) => ({
        values: fakeEmbedding((item.content?.parts ?? []).map((part: any) => part.text ?? "").join(" "), item.outputDimensionality),
      }));
      return send(response, 200, { embeddings });
    }
    if (action !== "generateContent" && action !== "streamGenerateContent") {
      return send(response, 404, { error: { code: 404, message: `Unknown action ${action}`, status: "NOT_FOUND" } });
    }

    // As strict as Google: a declaration the real API refuses fails the whole request (fake-gemini-schema.ts).
    const refused = functionDeclarationErrors(body) ?? inlineDataErrors(body);
    if (refused) return send(response, 400, refused);

    const refusedSchema = responseSchemaErrors(body);
    if (refusedSchema) return send(response, 400, refusedSchema);
    const responseSchema = body.generationConfig?.responseSchema as Record<string, unknown> | undefined;

    // Structured requests (a background job asking for JSON) take the first scripted json reply, and chat requests the
    // first other one: a job's call at a random moment never takes the reply a test scripted for its chat turn.
    const text = requestText(body);
    const scripted = queue.findIndex(
      (each) => (each.json !== undefined) === Boolean(responseSchema) && (each.match === undefined || text.includes(each.match)),
    );
    let reply: FakeReply =
      (scripted >= 0 ? queue.splice(scripted, 1)[0] : undefined) ??
      (responseSchema ? { json: emptyValue(responseSchema) } : { text: `Fake reply to: ${lastUserText(body)}` });
    if (responseSchema && !reply.error) {
      const mismatch = reply.json === undefined ? "the scripted reply has no json" : schemaMismatch(reply.json, responseSchema);
      if (mismatch)
        return send(response, 500, {
          error: { code: 500, message: `fake-gemini: a scripted reply Gemini could not give for this responseSchema: ${mismatch}`, status: "INTERNAL" },
        });
      reply = { ...reply, text: JSON.stringify(reply.json) };
    }
    const atGate = async (name: string | undefined) => {
      if (name) await Promise.race([gate(name).opened, new Promise((resolve) => response.once("close", resolve))]);
      return !response.destroyed;
    };
    if (action === "generateContent" && !(await atGate(reply.gate))) return;
    if (reply.hold) {
      if (!response.destroyed) await new Promise((resolve) => response.once("close", resolve));
      return;
    }
    const withGrounding = (body.tools ?? []).some((tool: any) => tool.googleSearch || tool.google_search);
    if (reply.delayMs && action === "generateContent") await sleep(reply.delayMs);
    if (reply.error) {
      return send(response, reply.error.status, {
        error: { code: reply.error.status, message: reply.error.message, status: "ERROR" },
      });
    }
    const callParts = (reply.functionCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.args } }));

    if (action === "generateContent") {
      const parts = [...(reply.text ? [{ text: reply.text }] : []), ...callParts];
      return send(response, 200, { candidates: [candidate(reply, parts, withGrounding)], usageMetadata: usage, modelVersion: model });
    }

    let cut = false;
    recorded.streamEnd = new Promise((resolve) =>
      response.once("close", () => {
        cut = !response.writableFinished;
        resolve(cut ? "cut" : "sent");
      }),
    );
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const pieces = reply.chunks ?? (reply.text ? (reply.text.match(/\S+\s*/g) ?? [reply.text]) : []);
    for (const [index, piece] of pieces.entries()) {
      if (reply.delayMs) await sleep(reply.delayMs);
      if (index === 0 && !(await atGate(reply.firstGate))) return;
      if (index === 1 && !(await atGate(reply.gate))) return;
      if (cut) return;
      const event = { candidates: [{ content: { role: "model", parts: [{ text: piece }] }, index: 0 }], modelVersion: model };
      response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
    }
    if (pieces.length === 0 && !(await atGate(reply.firstGate))) return;
    if (pieces.length <= 1 && !(await atGate(reply.gate))) return;
    const last = { candidates: [candidate(reply, callParts, withGrounding)], usageMetadata: usage, modelVersion: model };
    response.write(`data: ${JSON.stringify(last)}\r\n\r\n`);
    response.end();
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) send(response, 500, { error: { code: 500, message: error.message, status: "INTERNAL" } });
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? "127.0.0.1"}:${port}`;

  return {
    baseUrl: `${origin}/v1beta`,
    origin,
    requests,
    script: (...replies) => void queue.push(...replies),
    open: (name) => gate(name).open(),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      gates.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Talks to a fake started in another process (Playwright's webServer). */
export function fakeGeminiClient(origin: string) {
  const post = async (path: string, body: unknown = {}) => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return response.json();
  };
  return {
    script: (...replies: FakeReply[]) => post("/__fake/script", { replies }),
    open: (gate: string) => post("/__fake/open", { gate }),
    reset: () => post("/__fake/reset"),
    requests: async (): Promise<RecordedRequest[]> => (await fetch(`${origin}/__fake/requests`)).json(),
  };
}
