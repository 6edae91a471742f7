import type { Config } from "../config.ts";
import { createLlm } from "./llm/create-llm.ts";
import type { LlmProvider } from "./llm/llm.ts";

/** Every external capability the app uses, chosen once at start-up from config. Later modules add theirs. */
export interface Providers {
  /** A human-readable line per capability for the start-up log and the settings page. */
  describe(): Record<string, string>;
  /** The chat model (providers/llm/llm.ts), or null when no provider is configured. */
  llm: LlmProvider | null;
}

export function createProviders(config: Config): Providers {
  return {
    llm: createLlm(config.llm),
    describe: () => ({ llm: config.llm.provider === "none" ? "not configured" : `${config.llm.provider} ${config.llm.chatModel}` }),
  };
}
