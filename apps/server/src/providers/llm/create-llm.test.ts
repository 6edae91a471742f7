import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { createLlm } from "./create-llm.ts";
import { createFakeLlm } from "./fake.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());

const llmConfig = (env: Record<string, string>) => loadConfig({ SAGE_DATA_DIR: "/tmp/unused", ...env }).llm;

describe("createLlm", () => {
  it("is null when nothing is configured", () => {
    expect(createLlm(llmConfig({}))).toBeNull();
    expect(createLlm(llmConfig({ SAGE_LLM_PROVIDER: "openai-compatible" }))).toBeNull();
  });

  it("talks to Gemini at the configured base URL with the key", async () => {
    const llm = createLlm(llmConfig({ GEMINI_API_KEY: "k-123", GEMINI_BASE_URL: gemini.baseUrl }))!;
    expect(llm.provider).toBe("gemini");
    expect(llm.modelId).toBe("gemini-2.0-flash");
    expect(llm.keySet).toBe(true);
    gemini.script({ text: "Hello there" });
    const { text } = await llm.generate({ messages: [{ role: "user", content: "hi" }] });
    expect(text).toBe("Hello there");
    expect(gemini.requests.at(-1)).toMatchObject({ model: "gemini-2.0-flash", apiKey: "k-123" });
  });

  it("streams Gemini text in pieces", async () => {
    const llm = createLlm(llmConfig({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: gemini.baseUrl }))!;
    gemini.script({ chunks: ["One ", "two ", "three"] });
    const pieces: string[] = [];
    await llm.generate({ messages: [{ role: "user", content: "count" }], onText: (piece) => pieces.push(piece) });
    expect(pieces.join("")).toBe("One two three");
    expect(pieces.length).toBeGreaterThan(1);
  });

  it("says why a reply ended and what it used: a reply cut at the length limit is 'length', streamed or not", async () => {
    const llm = createLlm(llmConfig({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: gemini.baseUrl }))!;
    const messages = [{ role: "user" as const, content: "write a lot" }];
    gemini.script({ text: "Cut here", finishReason: "MAX_TOKENS" }, { chunks: ["Cut ", "again"], finishReason: "MAX_TOKENS" }, { text: "Complete." });
    const cut = await llm.generate({ messages });
    expect(cut).toMatchObject({ text: "Cut here", finishReason: "length", usage: { inputTokens: 10, outputTokens: 10 } });
    const streamedCut = await llm.generate({ messages, onText: () => {} });
    expect(streamedCut).toMatchObject({ text: "Cut again", finishReason: "length", usage: { inputTokens: 10, outputTokens: 10 } });
    expect((await llm.generate({ messages, onText: () => {} })).finishReason).toBe("stop");
  });

  it("builds an OpenAI-compatible provider from its base URL", () => {
    const llm = createLlm(
      llmConfig({
        SAGE_LLM_PROVIDER: "openai-compatible",
        SAGE_LLM_BASE_URL: "http://127.0.0.1:9/v1",
        SAGE_CHAT_MODEL: "llama3.2",
        SAGE_ALLOWED_MODELS: "qwen3",
      }),
    )!;
    expect(llm.provider).toBe("openai-compatible");
    expect(llm.keySet).toBe(false);
    expect(llm.allowedModels).toEqual(["llama3.2", "qwen3"]);
    expect(llm.searchWeb).toBeUndefined();
  });
});

describe("createFakeLlm", () => {
  it("answers scripted text and tool calls, and echoes otherwise", async () => {
    const llm = createFakeLlm();
    llm.script({ text: "scripted" });
    const ask = (content: string) => llm.generate({ messages: [{ role: "user", content }], tools: [{ name: "lookup", parameters: { type: "object" } }] });
    expect((await ask("a")).text).toBe("scripted");
    expect((await ask("echo me")).text).toBe("Fake reply to: echo me");
    llm.script({ functionCalls: [{ name: "lookup", args: { q: 1 } }] });
    expect((await ask("b")).toolCalls[0]).toMatchObject({ name: "lookup", args: { q: 1 } });
  });
});
