import type { ResearchStep } from "@sage/contracts/chat-turn";
import type { Citation } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import { createFakeLlm } from "../../../providers/llm/fake.ts";
import { researchTool, type ResearchDeps } from "./research-tool.ts";

/** A run with fakes for each capability; what it showed, numbered and read is kept. */
function harness(overrides: Partial<ResearchDeps> & { plan: string[] }) {
  const llm = createFakeLlm();
  llm.script({ text: JSON.stringify({ questions: overrides.plan }) });
  const steps: ResearchStep[] = [];
  const read: string[] = [];
  let numbered = 0;
  const tool = researchTool({
    llm,
    search: { search: async () => [], itemText: async () => "", itemPieces: async () => [] },
    webSearch: async (query) => ({
      response: `About ${query}`,
      groundingData: "",
      sources: [1, 2].map((rank) => ({ title: `${query} ${rank}`, url: `https://example.com/${encodeURIComponent(query)}/${rank}` })),
    }),
    pages: {
      async read(url, { maxChars }) {
        read.push(url);
        return { url, title: url, text: `Text of ${url}`.slice(0, maxChars) };
      },
    },
    limits: { maxQuestions: 3, maxPages: 3, maxMs: 60_000 },
    log: () => {},
    ...overrides,
  });
  const controller = new AbortController();
  const run = () =>
    tool.run(
      { topic: "Electric trucks" },
      {
        userId: 1,
        conversationId: 1,
        signal: controller.signal,
        cite: () => [],
        citeOther: (items) => items.map((item): Citation => ({ n: ++numbered, ...item })),
        citation: () => undefined,
        progress: (step) => steps.push(step),
        whenStopped: () => {},
      },
    );
  return { run, steps, read };
}

describe("research", () => {
  it("reads the best page of each question first, up to the page limit, each page once", async () => {
    const { run, read } = harness({ plan: ["sales", "charging", "sales"] });
    const outcome = await run();
    // Two distinct questions (the repeated one dropped): 1st of each, then the 2nd of the first, stopping at 3 pages.
    expect(read).toEqual(["https://example.com/sales/1", "https://example.com/charging/1", "https://example.com/sales/2"]);
    expect(outcome.result).toMatchObject({ questions: ["sales", "charging"], sources: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    expect(outcome.untrustedFrom).toContain("example.com");
  });

  it("at the time limit it stops gathering and hands over what it found, saying so", async () => {
    const { run, steps, read } = harness({
      plan: ["sales", "charging"],
      limits: { maxQuestions: 3, maxPages: 3, maxMs: 800 },
      // The second search never answers until the run's signal ends it.
      webSearch: async (query, signal) => {
        if (query === "charging") await new Promise((_, reject) => signal!.addEventListener("abort", () => reject(signal!.reason)));
        return { response: "", groundingData: "", sources: [{ title: "Sales", url: "https://example.com/sales" }] };
      },
    });
    const outcome = await run();
    expect(steps.map((step) => step.step)).toEqual(["planned", "searching", "searching", "searching", "searching", "stopped", "writing"]);
    expect(steps.at(-2)).toEqual({ step: "stopped", reason: "time" });
    expect(read).toEqual([]);
    expect(outcome.result).toMatchObject({ timeLimitReached: true, questions: ["sales", "charging"] });
  });
});
