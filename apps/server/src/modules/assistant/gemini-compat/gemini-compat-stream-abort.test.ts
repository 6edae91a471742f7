import { MockLanguageModelV3 } from "ai/test";
import { afterEach, expect, it, vi } from "vitest";
import { createLanguageModelLlm } from "../../../providers/llm/language-model-llm.ts";
import { createProviders } from "../../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../../test/test-app.ts";

let t: TestApp | undefined;
afterEach(async () => t?.close());

it("closing a streamed chat request (the stop button) aborts the model call", async () => {
  const state = { aborted: false };
  // A model that sends one piece of text and then waits until it is told to stop.
  const model = new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "t" });
          controller.enqueue({ type: "text-delta", id: "t", delta: "First words" });
          abortSignal?.addEventListener("abort", () => {
            state.aborted = true;
            controller.error(new DOMException("Aborted", "AbortError"));
          });
        },
      }),
    }),
  });
  const llm = createLanguageModelLlm({ provider: "fake", modelId: "m", allowedModels: ["m"], keySet: false, languageModel: () => model });
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), llm }) });
  const cookie = await t.login();
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });

  const controller = new AbortController();
  const response = await fetch(`${address}/api/gemini/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ messages: [{ role: "user", content: "Write a lot" }], stream: true }),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  let received = "";
  while (!received.includes("First words")) received += new TextDecoder().decode((await reader.read()).value);
  expect(received).toContain('event: text-delta\ndata: {"delta":"First words"}');
  expect(state.aborted).toBe(false);
  controller.abort();
  await vi.waitFor(() => expect(state.aborted).toBe(true));
});
