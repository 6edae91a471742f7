import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { embedderInThread } from "./embedder-in-thread.ts";
import { createOpenAiCompatibleEmbedder } from "./openai-compatible.ts";

/** An OpenAI-compatible /embeddings server: 3-number vectors from the text's length, or the error it is told. */
async function startEmbeddingsServer() {
  const failures: Array<{ status: number; message: string }> = [];
  const server: Server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
    const failure = failures.shift();
    response.writeHead(failure?.status ?? 200, { "content-type": "application/json" });
    if (failure) return response.end(JSON.stringify({ error: { message: failure.message, type: "invalid_request_error" } }));
    const data = (body.input as string[]).map((text, index) => ({ object: "embedding", index, embedding: [text.length, 0, 0] }));
    response.end(JSON.stringify({ object: "list", model: body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    failNext: (status: number, message: string) => failures.push({ status, message }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("an embedder answering from its worker thread", () => {
  let remote: Awaited<ReturnType<typeof startEmbeddingsServer>> | undefined;
  afterEach(async () => remote?.close());

  const openAi = (baseUrl: string) => {
    const options = { baseUrl, modelId: "test" };
    return embedderInThread(
      { kind: "openai-compatible", id: "openai-compatible:test", dimensions: 0, maxBatch: 64, options },
      createOpenAiCompatibleEmbedder(options),
    );
  };

  it("gives each text its unit vector in order, and learns the model's size from the first answer", async () => {
    remote = await startEmbeddingsServer();
    const embedder = openAi(remote.baseUrl);
    expect(embedder.dimensions).toBe(0);
    const vectors = await embedder.embed(["one", "three", "", "four", "five", "six"], { kind: "document" });
    expect(vectors).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(embedder.dimensions).toBe(3);
    await expect(embedder.embed([], { kind: "query" })).resolves.toEqual([]);
    await expect(embedder.embed(["a query"], { kind: "query" })).resolves.toEqual([[1, 0, 0]]); // on this thread
  });

  it("passes the provider's error on to the caller, and the next call still works", async () => {
    remote = await startEmbeddingsServer();
    const embedder = openAi(remote.baseUrl);
    const batch = ["a", "b", "c", "d", "e"];
    remote.failNext(401, "Incorrect API key provided");
    await expect(embedder.embed(batch, { kind: "document" })).rejects.toThrow("Incorrect API key provided");
    await expect(embedder.embed(batch, { kind: "document" })).resolves.toHaveLength(5);
  });

  it("answers calls made at the same time each with its own vectors", async () => {
    remote = await startEmbeddingsServer();
    const embedder = openAi(remote.baseUrl);
    const batches = Array.from({ length: 20 }, (_, index) => Array.from({ length: 5 + index }, () => "x"));
    const answers = await Promise.all(batches.map((batch) => embedder.embed(batch, { kind: "document" })));
    expect(answers.map((answer) => answer.length)).toEqual(batches.map((batch) => batch.length));
  });
});
