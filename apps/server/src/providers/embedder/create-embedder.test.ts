import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { loadConfig } from "../../config.ts";
import { createEmbedder } from "./create-embedder.ts";

const temp = makeTempDir();
afterAll(() => temp.remove());

const configWith = (env: Record<string, string>) => loadConfig({ SAGE_DATA_DIR: temp.dir, ...env });

describe("createEmbedder", () => {
  it("falls back to lexical-only search without failing when nothing is configured", () => {
    const setup = createEmbedder(configWith({}));
    expect(setup.embedder).toBeNull();
    expect(setup.description).toMatch(/^none \(lexical search only/);
  });

  it("honours SAGE_EMBEDDER=none even with a Gemini key", () => {
    expect(createEmbedder(configWith({ SAGE_EMBEDDER: "none", GEMINI_API_KEY: "k" })).embedder).toBeNull();
  });

  it("picks Gemini at 768 dimensions when a key is set, and an OpenAI-compatible server when named", () => {
    const gemini = createEmbedder(configWith({ GEMINI_API_KEY: "k" })).embedder!;
    expect(gemini.id).toBe("gemini:gemini-embedding-001:768");
    expect(gemini.dimensions).toBe(768);
    const openAi = createEmbedder(configWith({ SAGE_LLM_BASE_URL: "http://127.0.0.1:9/v1", SAGE_EMBEDDING_MODEL: "nomic-embed-text" })).embedder!;
    expect(openAi.id).toBe("openai-compatible:nomic-embed-text");
  });

  it("uses a local model only once it is in the data dir (auto never downloads)", () => {
    expect(createEmbedder(configWith({})).embedder).toBeNull();
    const folder = path.join(temp.dir, "models", "Xenova", "bge-small-en-v1.5");
    mkdirSync(path.join(folder, "onnx"), { recursive: true });
    writeFileSync(path.join(folder, "config.json"), JSON.stringify({ hidden_size: 384 }));
    writeFileSync(path.join(folder, "tokenizer.json"), "{}");
    writeFileSync(path.join(folder, "onnx", "model.onnx"), "");
    const local = createEmbedder(configWith({})).embedder!;
    expect(local.id).toBe("local:bge-small-en-v1.5:384");
    expect(local.dimensions).toBe(384);
  });
});

describe("Gemini embedder", () => {
  let fake: Awaited<ReturnType<typeof startFakeGemini>> | undefined;
  afterEach(async () => fake?.close());

  it("asks for 768 dimensions with the query/document task types and returns unit vectors", async () => {
    fake = await startFakeGemini();
    const embedder = createEmbedder(configWith({ GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: fake.baseUrl })).embedder!;
    const vectors = await embedder.embed(["first text", "second text"], { kind: "document" });
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(768);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 5);
    await embedder.embed(["a question"], { kind: "query" });
    const bodies = fake.requests.map((request) => JSON.stringify(request.body));
    expect(bodies.some((body) => body.includes("RETRIEVAL_DOCUMENT") && body.includes("768"))).toBe(true);
    expect(bodies.some((body) => body.includes("RETRIEVAL_QUERY"))).toBe(true);
  });
});
