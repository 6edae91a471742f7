import { Button } from "@/components/ui/button";
import { useAssistantSettings } from "../api/get-assistant-settings";
import { useTestConnection } from "../api/test-connection";

const PROVIDER_NAMES: Record<string, string> = {
  gemini: "Google Gemini",
  "openai-compatible": "OpenAI-compatible server",
  fake: "Test model",
  none: "Not configured",
};

const WEB_SEARCH_NAMES: Record<string, string> = {
  gemini: "Google Search grounding (Gemini)",
  searxng: "SearXNG",
  tavily: "Tavily",
  brave: "Brave Search",
  none: "Not configured",
};

/** Settings > User Preferences: which model answers, whether a key is set (never the key), and a connection test. */
export function ModelSettings() {
  const settings = useAssistantSettings();
  const test = useTestConnection();
  const data = settings.data;

  return (
    <section aria-labelledby="model-settings-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="model-settings-heading" className="text-lg font-semibold">
        Assistant Model
      </h2>
      {settings.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
      {settings.isError && <p className="text-sm text-destructive">Failed to load the model settings</p>}
      {data && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Provider</dt>
          <dd data-testid="model-provider">{PROVIDER_NAMES[data.provider] ?? data.provider}</dd>
          <dt className="text-muted-foreground">Model</dt>
          <dd data-testid="model-id">{data.modelId ?? "-"}</dd>
          {data.allowedModels.length > 1 && (
            <>
              <dt className="text-muted-foreground">Allowed models</dt>
              <dd>{data.allowedModels.join(", ")}</dd>
            </>
          )}
          {data.baseUrl && (
            <>
              <dt className="text-muted-foreground">Server</dt>
              <dd className="break-all">{data.baseUrl}</dd>
            </>
          )}
          <dt className="text-muted-foreground">API key</dt>
          <dd data-testid="model-key">{data.keySet ? "Set" : "Not set"}</dd>
          <dt className="text-muted-foreground">Web search</dt>
          <dd>{WEB_SEARCH_NAMES[data.webSearch] ?? data.webSearch}</dd>
        </dl>
      )}
      {data?.provider === "none" && (
        <p className="text-sm text-muted-foreground">
          Set GEMINI_API_KEY for Gemini, or SAGE_LLM_PROVIDER=openai-compatible with SAGE_LLM_BASE_URL for a server such as Ollama, then restart SAGE.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => test.mutate()} disabled={test.isPending || !data}>
          {test.isPending ? "Testing..." : "Test connection"}
        </Button>
        {test.data && (
          <p role="status" className={test.data.ok ? "text-sm text-green-700 dark:text-green-400" : "text-sm text-destructive"}>
            {test.data.message}
          </p>
        )}
        {test.isError && (
          <p role="status" className="text-sm text-destructive">
            Connection test failed: {test.error.message}
          </p>
        )}
      </div>
    </section>
  );
}
