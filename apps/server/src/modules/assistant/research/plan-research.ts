import type { JsonSchema, LlmProvider } from "../../../providers/llm/llm.ts";

const PLAN_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    questions: { type: "array", items: { type: "string" }, description: "Short web search queries that together cover the topic" },
  },
  required: ["questions"],
};

/**
 * The questions a research run searches, planned by the model from the topic alone (decision 046): nothing the run
 * reads later (a page, a passage) can add a question. A plan the model gives empty or malformed is the topic itself.
 */
export async function planResearch(
  llm: LlmProvider,
  options: { topic: string; maxQuestions: number; modelId?: string; signal: AbortSignal },
): Promise<string[]> {
  const reply = await llm.generateObject({
    modelId: options.modelId,
    system: [
      "You plan research for a busy executive.",
      `Break the topic into at most ${options.maxQuestions} short, distinct search queries that together cover what a well-informed brief on it needs.`,
      "Write each query as you would type it into a search engine, in the topic's language.",
    ].join(" "),
    prompt: `Topic: ${options.topic}`,
    schema: PLAN_SCHEMA,
    signal: options.signal,
  });
  const listed = (reply as { questions?: unknown } | null)?.questions;
  const questions = Array.isArray(listed) ? listed.filter((item): item is string => typeof item === "string").map((item) => item.trim().slice(0, 300)) : [];
  const distinct = [...new Set(questions.filter(Boolean))].slice(0, options.maxQuestions);
  return distinct.length > 0 ? distinct : [options.topic.slice(0, 300)];
}
