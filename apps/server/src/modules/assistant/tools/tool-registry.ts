import type { LlmTool } from "../../../providers/llm/llm.ts";
import type { AssistantTool } from "./assistant-tool.ts";

/** The tools a turn offers the model: their declarations, and each by name. */
export function createToolRegistry(tools: readonly AssistantTool[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const declarations: LlmTool[] = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  return {
    declarations,
    find: (name: string): AssistantTool | undefined => byName.get(name),
  };
}

export type ToolRegistry = ReturnType<typeof createToolRegistry>;
