import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { embedMany, generateText, jsonSchema, Output, streamText } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fakeEmbedding, fakeGeminiClient, startFakeGemini, type FakeGemini } from "./fake-gemini.ts";

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini();
});
afterAll(async () => fake.close());
beforeEach(() => fake.reset());

const google = () => createGoogleGenerativeAI({ apiKey: "test-key", baseURL: fake.baseUrl });

describe("fake Gemini server through the AI SDK", () => {
  it("answers generateContent with the scripted text and records the request", async () => {
    fake.script({ text: "Hello from the fake" });
    const result = await generateText({ model: google()("gemini-2.0-flash"), prompt: "Hi there" });
    expect(result.text).toBe("Hello from the fake");
    expect(fake.requests[0]).toMatchObject({ model: "gemini-2.0-flash", action: "generateContent", apiKey: "test-key" });
    expect(JSON.stringify(fake.requests[0]!.body.contents)).toContain("Hi there");
  });

  it("keeps a reply scripted for a chat turn from a structured request that comes first (a background job)", async () => {
    const schema = jsonSchema<{ items: string[] }>({
      type: "object",
      properties: { items: { type: "array", items: { type: "string" } } },
      required: ["items"],
    });
    fake.script({ text: "The chat's answer" });
    const job = await generateText({ model: google()("gemini-2.0-flash"), prompt: "extract", output: Output.object({ schema }) });
    expect(job.output).toEqual({ items: [] });
    expect((await generateText({ model: google()("gemini-2.0-flash"), prompt: "chat" })).text).toBe("The chat's answer");
  });

  it("answers structured output with the scripted JSON, and refuses what Gemini would", async () => {
    const schema = jsonSchema<{ items: { name: string; due: string | null }[] }>({
      type: "object",
      properties: {
        items: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" }, due: { type: ["string", "null"] } }, required: ["name", "due"] },
        },
      },
      required: ["items"],
    });
    fake.script({ json: { items: [{ name: "deck", due: null }] } });
    const result = await generateText({ model: google()("gemini-2.0-flash"), prompt: "list", output: Output.object({ schema }) });
    expect(result.output).toEqual({ items: [{ name: "deck", due: null }] });
    expect(fake.requests[0]!.body.generationConfig).toMatchObject({ responseMimeType: "application/json", responseSchema: { type: "object" } });

    // A scripted reply the schema forbids is the test's mistake: Gemini never writes one.
    fake.script({ json: { items: [{ name: 3, due: null }] } });
    await expect(generateText({ model: google()("gemini-2.0-flash"), prompt: "list", output: Output.object({ schema }), maxRetries: 0 })).rejects.toThrow(
      /\$\.items\[0\]\.name should be a string/,
    );

    // A string format other than date-time is refused, as the real API does.
    const dated = jsonSchema({ type: "object", properties: { due: { type: "string", format: "date" } }, required: ["due"] });
    await expect(
      generateText({ model: google()("gemini-2.0-flash"), prompt: "list", output: Output.object({ schema: dated }), maxRetries: 0 }),
    ).rejects.toThrow(/only 'enum' and 'date-time' are supported/);
  });

  it("echoes the user text when nothing is scripted", async () => {
    const result = await generateText({ model: google()("gemini-2.0-flash"), prompt: "ping" });
    expect(result.text).toBe("Fake reply to: ping");
  });

  it("streams text in pieces", async () => {
    fake.script({ text: "one two three" });
    const result = streamText({ model: google()("gemini-2.0-flash"), prompt: "count" });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.join("")).toBe("one two three");
    expect(pieces.length).toBeGreaterThan(1);
  });

  it("takes pictures Gemini takes, and refuses a GIF or bytes that are not the picture named, as Gemini does", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const ask = (mimeType: string, data: string) =>
      fetch(`${fake.baseUrl}/models/gemini-2.0-flash:generateContent`, {
        method: "POST",
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType, data } }] }] }),
      });
    expect((await ask("image/png", png.toString("base64"))).status).toBe(200);
    const gif = await ask("image/gif", Buffer.from("GIF89a").toString("base64"));
    expect([gif.status, (await gif.json()).error.message]).toEqual([400, "Unsupported MIME type: image/gif"]);
    const notPng = await ask("image/png", Buffer.from("not a picture").toString("base64"));
    expect(notPng.status).toBe(400);
    expect((await notPng.json()).error.message).toMatch(/^Unable to process input image/);
  });

  it("returns scripted function calls", async () => {
    fake.script({ functionCalls: [{ name: "searchDocuments", args: { query: "budget" } }] });
    const response = await fetch(`${fake.baseUrl}/models/gemini-2.0-flash:generateContent`, {
      method: "POST",
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "find" }] }] }),
    });
    const json = await response.json();
    expect(json.candidates[0].content.parts[0].functionCall).toEqual({ name: "searchDocuments", args: { query: "budget" } });
  });

  it("ends a reply with a scripted finish reason, as Gemini does when a reply hits the length limit", async () => {
    fake.script({ text: "A long answer that stops", finishReason: "MAX_TOKENS" }, { text: "Again, streamed", finishReason: "MAX_TOKENS" }, { text: "Done." });
    const unstreamed = await generateText({ model: google()("gemini-2.0-flash"), prompt: "write a lot" });
    expect([unstreamed.text, unstreamed.finishReason]).toEqual(["A long answer that stops", "length"]);
    const streamed = streamText({ model: google()("gemini-2.0-flash"), prompt: "write a lot" });
    expect([await streamed.text, await streamed.finishReason]).toEqual(["Again, streamed", "length"]);
    expect((await generateText({ model: google()("gemini-2.0-flash"), prompt: "short" })).finishReason).toBe("stop");
  });

  it("answers a scripted HTTP error", async () => {
    fake.script({ error: { status: 503, message: "overloaded" } });
    await expect(generateText({ model: google()("gemini-2.0-flash"), prompt: "x", maxRetries: 0 })).rejects.toThrow(/overloaded/);
  });

  it("holds a reply until its caller gives up, then answers the next request as scripted", async () => {
    fake.script({ text: "Never sent.", hold: true, match: "search the web" }, { text: "Answered." });
    const stop = new AbortController();
    const held = generateText({ model: google()("gemini-2.0-flash"), prompt: "search the web for trucks", maxRetries: 0, abortSignal: stop.signal });
    await expect.poll(() => fake.requests.length).toBe(1);
    stop.abort();
    await expect(held).rejects.toThrow(/abort/i);
    expect((await generateText({ model: google()("gemini-2.0-flash"), prompt: "something else", maxRetries: 0 })).text).toBe("Answered.");
  });

  it("keeps a gated reply until the test opens its gate, over HTTP as Playwright's tests do", async () => {
    fake.script({ text: "After the gate.", gate: "search" });
    let opened = false;
    const reply = generateText({ model: google()("gemini-2.0-flash"), prompt: "Search" }).then((result) => ({ text: result.text, opened }));
    await expect.poll(() => fake.requests.length).toBe(1);
    opened = true;
    await fakeGeminiClient(fake.origin).open("search");
    expect(await reply).toEqual({ text: "After the gate.", opened: true });
  });

  it("streams a gated reply's first piece at once and the rest once the gate opens", async () => {
    fake.script({ chunks: ["First. ", "Second."], gate: "rest" });
    const stream = streamText({ model: google()("gemini-2.0-flash"), prompt: "Go" });
    const pieces = stream.textStream[Symbol.asyncIterator]();
    expect((await pieces.next()).value).toBe("First. ");
    await fakeGeminiClient(fake.origin).open("rest");
    expect(await stream.text).toBe("First. Second.");
  });

  it("holds a streamed reply's first piece at its first gate, and the rest at its gate", async () => {
    fake.script({ chunks: ["First. ", "Second."], firstGate: "typing", gate: "rest" });
    const client = fakeGeminiClient(fake.origin);
    const stream = streamText({ model: google()("gemini-2.0-flash"), prompt: "Go" });
    const pieces = stream.textStream[Symbol.asyncIterator]();
    let first: string | undefined;
    const firstPiece = pieces.next().then((piece) => (first = piece.value));
    await expect.poll(() => fake.requests.length).toBe(1);
    expect(first).toBeUndefined();
    await client.open("typing");
    expect(await firstPiece).toBe("First. ");
    await client.open("rest");
    expect(await stream.text).toBe("First. Second.");
  });

  it("embeds deterministically, similar texts closer than unrelated ones", async () => {
    const { embeddings } = await embedMany({
      model: google().textEmbeddingModel("gemini-embedding-001"),
      values: ["budget forecast for the quarter", "the quarter budget forecast", "penguins swim"],
    });
    const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
    expect(embeddings).toHaveLength(3);
    expect(embeddings[0]).toEqual(fakeEmbedding("budget forecast for the quarter"));
    expect(dot(embeddings[0]!, embeddings[1]!)).toBeGreaterThan(dot(embeddings[0]!, embeddings[2]!));
  });
});
