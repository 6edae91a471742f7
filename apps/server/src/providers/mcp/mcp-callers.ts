/** A question a server asks while one of its tools runs (MCP `elicitation/create`). */
export interface McpElicitation {
  mode: "form" | "url";
  message: string;
  /** Form mode: the JSON Schema of the fields. */
  requestedSchema?: unknown;
  /** URL mode: the server's page, and the id it gives the interaction. */
  url?: string;
  elicitationId?: string;
}

export interface McpElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Who a call is for: the questions and progress its server sends while it runs go to them only. */
export interface McpCaller {
  /** The user (or process) whose call it is; a question is routed only when every call in flight is one owner's. */
  owner: string;
  elicit?(request: McpElicitation, signal: AbortSignal): Promise<McpElicitResult>;
  progress?(progress: McpProgress): void;
}

/**
 * The calls in flight on one connection. MCP gives a server's question no link to the call it belongs to, so a
 * question goes to the latest call in flight when every call in flight is one owner's, and is cancelled otherwise:
 * one user's answer never comes from, or goes to, another user's turn.
 */
export function createCallers() {
  const inflight = new Map<number, McpCaller>();
  let next = 0;
  return {
    /** Registers a call; the returned function ends it. */
    add(caller: McpCaller): () => void {
      const id = next++;
      inflight.set(id, caller);
      return () => void inflight.delete(id);
    },
    /** The caller a question goes to, or undefined when none can be told apart (no call, or several owners). */
    askFor(): McpCaller | undefined {
      const callers = [...inflight.values()];
      if (new Set(callers.map((caller) => caller.owner)).size !== 1) return undefined;
      return callers.at(-1);
    },
    get size() {
      return inflight.size;
    },
  };
}
