import type { LlmTool } from "../../../providers/llm/llm.ts";
import type { AssistantTool, ToolFeature } from "./assistant-tool.ts";

const declare = (tools: readonly AssistantTool[]): LlmTool[] => tools.map(({ name, description, parameters }) => ({ name, description, parameters }));

/** The tools a turn offers the model: their declarations, and each by name. */
function toolSet(tools: readonly AssistantTool[]) {
  const byName = new Map<string, AssistantTool>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool); // SAGE's own tools win a name clash
  const kept = [...byName.values()];
  return { declarations: declare(kept), find: (name: string): AssistantTool | undefined => byName.get(name) };
}

/**
 * SAGE's own tools, plus those a source adds per user for each turn (external MCP tools); a failing source
 * means none of its tools, never a failed turn.
 */
export function createToolRegistry(
  tools: readonly AssistantTool[],
  sources: readonly ((userId: number) => Promise<AssistantTool[]>)[] = [],
  log?: (message: string, error: unknown) => void,
) {
  return {
    ...toolSet(tools),
    /** The tools of one user's turn: a feature the user switched off (memory) offers no tool and runs none. */
    async forUser(userId: number, off: ReadonlySet<ToolFeature> = new Set()) {
      const added = await Promise.all(
        sources.map((source) =>
          source(userId).catch((error) => {
            log?.("a tool source failed; its tools are left out of this turn", error);
            return [];
          }),
        ),
      );
      return toolSet([...tools, ...added.flat()].filter((tool) => !tool.feature || !off.has(tool.feature)));
    },
  };
}

export type ToolRegistry = ReturnType<typeof createToolRegistry>;
