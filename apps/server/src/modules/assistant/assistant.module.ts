import type { AppModule } from "../../http/app-module.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { WebSearchSetup } from "../../providers/web-search/create-web-search.ts";
import { registerAssistantRoutes } from "./assistant.routes.ts";
import { createAssistantService } from "./assistant.service.ts";

/** The model calls of a chat turn, web search, and the model settings. */
export function createAssistantModule(deps: { llm: LlmProvider | null; webSearch: WebSearchSetup }): AppModule {
  const service = createAssistantService(deps);
  return { register: (app) => registerAssistantRoutes(app, { service }) };
}
