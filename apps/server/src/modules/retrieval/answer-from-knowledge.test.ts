import { afterEach, describe, expect, it } from "vitest";
import { createFakeLlm } from "../../providers/llm/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { seedKnowledge } from "./retrieval-test-helpers.ts";

let t: TestApp;
afterEach(async () => t.close());

describe("POST /api/test/gemini/query", () => {
  it("answers with the model from retrieved knowledge and lists the sources", async () => {
    const llm = createFakeLlm();
    t = await createTestApp({ providers: (config) => ({ ...createProviders(config), llm }) });
    const cookie = await t.login();
    await seedKnowledge(t, { userId: 3, name: "buffett.txt", chunks: ["Buy wonderful businesses at fair prices."] });
    llm.script({ text: "Buffett prefers **wonderful businesses** [1]." });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/test/gemini/query",
      headers: { cookie },
      payload: { query: "What businesses does Buffett buy?" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ response: "Buffett prefers **wonderful businesses** [1].", sources: [{ filename: "buffett.txt" }] });
    expect(JSON.stringify(llm.prompts.at(-1))).toContain("Buy wonderful businesses at fair prices.");
  });

  it("reports failures as a message: blank query, no model, model error", async () => {
    const llm = createFakeLlm();
    t = await createTestApp({ providers: (config) => ({ ...createProviders(config), llm }) });
    const cookie = await t.login();
    const ask = (query: string) => t.app.inject({ method: "POST", url: "/api/test/gemini/query", headers: { cookie }, payload: { query } });
    expect((await ask("  ")).json().message).toBe("No search query provided.");
    llm.script({ error: new Error("quota exceeded") });
    const failed = await ask("anything");
    expect(failed.statusCode).toBe(502);
    // The fake model is not Gemini: the spec's 'Failed to get response from Gemini' would name the wrong vendor.
    expect(failed.json().message).toBe("Failed to get response from the model: quota exceeded");
  });

  it("keeps the spec's text naming Gemini when the model is Gemini", async () => {
    const llm = { ...createFakeLlm(), provider: "gemini" as const };
    t = await createTestApp({ providers: (config) => ({ ...createProviders(config), llm }) });
    const cookie = await t.login();
    llm.script({ error: new Error("quota exceeded") });
    const failed = await t.app.inject({ method: "POST", url: "/api/test/gemini/query", headers: { cookie }, payload: { query: "anything" } });
    expect(failed.json().message).toBe("Failed to get response from Gemini: quota exceeded");
  });
});
