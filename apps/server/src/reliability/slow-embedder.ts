import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fakeEmbedding } from "@sage/testkit/fake-gemini";

/**
 * A Gemini embeddings endpoint on 127.0.0.1 that answers each batch after `delayMs`, so ingestion and
 * re-vectorising take long enough to be killed half-way. Vectors are the testkit's deterministic ones.
 */
export async function startSlowEmbedder(delayMs: number) {
  let batches = 0;
  const readBody = async (request: IncomingMessage) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    return JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
  };
  const server: Server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      batches += 1;
      const text = (content: { parts?: { text?: string }[] } | undefined) => (content?.parts ?? []).map((part) => part.text ?? "").join(" ");
      const payload = request.url?.includes(":batchEmbedContents")
        ? {
            embeddings: (body.requests ?? []).map((item: { content?: { parts?: { text?: string }[] }; outputDimensionality?: number }) => ({
              values: fakeEmbedding(text(item.content), item.outputDimensionality),
            })),
          }
        : { embedding: { values: fakeEmbedding(text(body.content), body.outputDimensionality) } };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`;
  return {
    baseUrl,
    batches: () => batches,
    /** Server env selecting this endpoint as SAGE's Gemini embedder. */
    env: (model = "gemini-embedding-001") => ({ SAGE_EMBEDDER: "gemini", GEMINI_API_KEY: "crash-test", GEMINI_BASE_URL: baseUrl, SAGE_EMBEDDING_MODEL: model }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
