import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { writeTinyOnnxModel } from "@sage/testkit/tiny-onnx-model";
import { loadConfig } from "../../config.ts";
import { createEmbedder } from "./create-embedder.ts";
import { BGE_QUERY_PREFIX, createLocalEmbedder } from "./local.ts";

const temp = makeTempDir();
afterAll(() => temp.remove());

const dot = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);
const localEmbedder = (folder: string) => createLocalEmbedder({ model: folder, dataDir: temp.dir, allowDownload: false });

describe("local ONNX embedder", () => {
  it("gives unit vectors of the model's hidden size, closer for texts on the same topic", async () => {
    const { folder } = writeTinyOnnxModel(path.join(temp.dir, "tiny-bert"), { hiddenSize: 24 });
    const embedder = localEmbedder(folder);
    expect(embedder.id).toBe("local:tiny-bert:24");
    expect(embedder.dimensions).toBe(24);

    const [car, automobile, bread] = await embedder.embed(["My car needs new tyres", "automobile", "baking bread in the oven"], { kind: "document" });
    for (const vector of [car!, automobile!, bread!]) {
      expect(vector).toHaveLength(24);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    expect(dot(car!, automobile!)).toBeGreaterThan(dot(bread!, automobile!) + 0.2);
    // Padding inside a batch must not change a text's vector.
    const [alone] = await embedder.embed(["automobile"], { kind: "document" });
    alone!.forEach((value, index) => expect(value).toBeCloseTo(automobile![index]!, 5));
  });

  it("puts the BGE instruction in front of queries for BGE models only", async () => {
    const plain = localEmbedder(writeTinyOnnxModel(path.join(temp.dir, "tiny-minilm")).folder);
    const [plainQuery] = await plain.embed(["car engine"], { kind: "query" });
    const [plainDocument] = await plain.embed(["car engine"], { kind: "document" });
    expect(plainQuery).toEqual(plainDocument);

    const bge = localEmbedder(
      writeTinyOnnxModel(path.join(temp.dir, "tiny-bge"), { words: ["represent", "sentence", "searching", "relevant", "passages"] }).folder,
    );
    const [bgeQuery] = await bge.embed(["car engine"], { kind: "query" });
    const [bgeDocument] = await bge.embed(["car engine"], { kind: "document" });
    const [prefixedDocument] = await bge.embed([`${BGE_QUERY_PREFIX}car engine`], { kind: "document" });
    expect(dot(bgeQuery!, bgeDocument!)).toBeLessThan(0.95);
    bgeQuery!.forEach((value, index) => expect(value).toBeCloseTo(prefixedDocument![index]!, 5));
  });

  it("fails an embed call on a broken model file, and loads it once it is repaired", async () => {
    const { folder } = writeTinyOnnxModel(path.join(temp.dir, "repaired-model"));
    writeFileSync(path.join(folder, "onnx", "model.onnx"), "not a model");
    const embedder = localEmbedder(folder);
    await expect(embedder.embed(["car"], { kind: "document" })).rejects.toThrow();
    writeTinyOnnxModel(folder);
    expect(await embedder.embed(["car"], { kind: "document" })).toHaveLength(1);
  });
});

describe("createEmbedder with SAGE_EMBEDDER=local", () => {
  const setupFor = (model: string) => createEmbedder(loadConfig({ SAGE_DATA_DIR: temp.dir, SAGE_EMBEDDER: "local", SAGE_LOCAL_EMBEDDING_MODEL: model }));

  it("uses the model folder given", () => {
    const { folder } = writeTinyOnnxModel(path.join(temp.dir, "chosen-model"), { hiddenSize: 16 });
    const setup = setupFor(folder);
    expect(setup.embedder?.id).toBe("local:chosen-model:16");
    expect(setup.description).toBe("local:chosen-model:16");
  });

  it("falls back to lexical search, saying why, when the folder holds no model", () => {
    const empty = path.join(temp.dir, "empty-model");
    mkdirSync(empty, { recursive: true });
    const setup = setupFor(empty);
    expect(setup.embedder).toBeNull();
    expect(setup.description).toBe(`none (lexical search only: no local ONNX model in ${empty} (it needs config.json, tokenizer.json and onnx/model.onnx))`);
  });

  it("plans to download a Hugging Face id into the data dir when it is not there yet", () => {
    const setup = setupFor("Xenova/bge-small-en-v1.5");
    expect(setup.embedder).not.toBeNull();
    expect(setup.description).toBe(
      `local:Xenova/bge-small-en-v1.5 (downloaded into ${path.join(temp.dir, "models", "Xenova", "bge-small-en-v1.5")} on first use)`,
    );
  });
});
