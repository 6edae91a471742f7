import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { JsonSchema } from "./llm.ts";
import { createOpenAiCompatibleLlm } from "./openai-compatible.ts";

// A minimal OpenAI-compatible server (what Ollama, LM Studio or vLLM expose): one chat completion.
const received: { url: string; authorization?: string; body: any }[] = [];
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      received.push({ url: request.url ?? "", authorization: request.headers.authorization, body: JSON.parse(raw) });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          created: 1,
          model: "llama3.2",
          choices: [{ index: 0, message: { role: "assistant", content: "Hello from Ollama" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("sends chat completions to the configured server with the model and key", async () => {
  const llm = createOpenAiCompatibleLlm({ baseUrl, apiKey: "ollama-key", modelId: "llama3.2", allowedModels: ["llama3.2"] });
  const { text } = await llm.generate({ system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
  expect(text).toBe("Hello from Ollama");
  expect(received[0]).toMatchObject({ url: "/v1/chat/completions", authorization: "Bearer ollama-key" });
  expect(received[0]!.body.model).toBe("llama3.2");
  expect(received[0]!.body.messages).toEqual([
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
  ]);
});

it("sends a tool's JSON Schema as it is ($ref, oneOf ...): OpenAI-compatible servers take full JSON Schema", async () => {
  const llm = createOpenAiCompatibleLlm({ baseUrl, modelId: "llama3.2", allowedModels: ["llama3.2"] });
  const parameters = {
    type: "object",
    $defs: { id: { type: "integer" } },
    properties: { who: { oneOf: [{ $ref: "#/$defs/id" }, { type: "string" }] } },
    additionalProperties: false,
  } as JsonSchema;
  await llm.generate({ messages: [{ role: "user", content: "Hi" }], tools: [{ name: "find", description: "Find", parameters }] });
  expect(received.at(-1)!.body.tools[0].function.parameters).toEqual(parameters);
  expect(llm.checkToolSchema).toBeUndefined();
});
