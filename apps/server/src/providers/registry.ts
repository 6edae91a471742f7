import type { Config } from "../config.ts";

/** Every external capability the app uses, chosen once at start-up from config. Later modules add theirs. */
export interface Providers {
  /** A human-readable line per capability for the start-up log and the settings page. */
  describe(): Record<string, string>;
}

export function createProviders(config: Config): Providers {
  return {
    describe: () => ({ llm: config.llm.provider === "none" ? "not configured" : `${config.llm.provider} ${config.llm.chatModel}` }),
  };
}
