import { PlugZapIcon } from "lucide-react";
import { Link } from "wouter";

export const NO_MODEL_TEXTS = {
  title: "No AI model is connected",
  body:
    "SAGE cannot answer messages until a model is connected. Whoever set up SAGE can connect Google Gemini with an API key, " +
    "or a model running on this computer (such as Ollama), and restart SAGE. Your conversations, files and reminders work meanwhile.",
  details: "Set GEMINI_API_KEY for Gemini, or SAGE_LLM_PROVIDER=openai-compatible with SAGE_LLM_BASE_URL for a server such as Ollama, then restart SAGE.",
} as const;

/** The chat's answer when the server has no model (its own text, which names settings, goes under Details). */
export const NO_MODEL_NOTICE = "SAGE cannot answer yet: no AI model is connected. Your message is kept in the box; whoever set up SAGE can connect a model.";

/** Shown above the chat, before anything is typed, when the server has no model (issue 33 item 13). */
export function NoModelBanner() {
  return (
    <section
      aria-labelledby="no-model-title"
      data-testid="no-model-banner"
      className="mb-4 flex gap-3 rounded-lg border border-amber-500/50 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <PlugZapIcon className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="no-model-title" className="font-semibold">
          {NO_MODEL_TEXTS.title}
        </h2>
        <p>{NO_MODEL_TEXTS.body}</p>
        <p>
          <Link href="/settings?section=user-preferences" className="underline underline-offset-2">
            See the model settings
          </Link>
        </p>
        <details>
          <summary className="cursor-pointer">Technical details</summary>
          <p className="mt-1 font-mono text-xs break-words">{NO_MODEL_TEXTS.details}</p>
        </details>
      </div>
    </section>
  );
}
