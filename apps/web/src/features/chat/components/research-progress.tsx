import { RESEARCH_TEXTS, type ResearchStep } from "@sage/contracts/chat-turn";
import type { ToolCallRecord } from "@sage/contracts/conversations";
import { BookOpenText, CheckIcon, FileSearch, Globe, Loader2, NotebookPen, OctagonX } from "lucide-react";

/** The steps a finished research run took, from its saved call (its questions and the pages it read). */
export function researchStepsOf(call: Pick<ToolCallRecord, "name" | "result">): ResearchStep[] | null {
  if (call.name !== "research" || !call.result || typeof call.result !== "object") return null;
  const result = call.result as { questions?: unknown; read?: unknown; sources?: unknown };
  if (!Array.isArray(result.questions)) return null;
  const questions = result.questions.filter((item): item is string => typeof item === "string");
  const read = Array.isArray(result.read) ? (result.read as { url?: unknown; title?: unknown }[]) : [];
  return [
    { step: "planned", questions },
    ...read.flatMap((page): ResearchStep[] =>
      typeof page.url === "string" ? [{ step: "reading", url: page.url, ...(typeof page.title === "string" ? { title: page.title } : {}) }] : [],
    ),
    { step: "writing", sources: Array.isArray(result.sources) ? result.sources.length : 0 },
  ];
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
};

function stepLine(step: Exclude<ResearchStep, { step: "planned" }>): { icon: typeof Globe; text: string } {
  switch (step.step) {
    case "searching":
      return step.where === "web"
        ? { icon: Globe, text: RESEARCH_TEXTS.searchingWeb(step.query) }
        : { icon: FileSearch, text: RESEARCH_TEXTS.searchingDocuments(step.query) };
    case "reading":
      return { icon: BookOpenText, text: RESEARCH_TEXTS.reading(step.title ? `${step.title} (${hostOf(step.url)})` : step.url) };
    case "writing":
      return { icon: NotebookPen, text: RESEARCH_TEXTS.writing(step.sources) };
    case "stopped":
      return { icon: OctagonX, text: RESEARCH_TEXTS.stoppedByTime };
  }
}

/**
 * A research run's steps (decision 046): the questions it planned, then each search, page and the writing, as they
 * happen while the turn runs (the last one spinning) and as a record above the finished report.
 */
export function ResearchProgress({ steps, live = false }: { steps: readonly ResearchStep[]; live?: boolean }) {
  const planned = steps.find((step) => step.step === "planned");
  const rest = steps.filter((step): step is Exclude<ResearchStep, { step: "planned" }> => step.step !== "planned");
  return (
    <li data-testid="research-progress" className="flex flex-col items-start">
      <section aria-label={RESEARCH_TEXTS.title} className="w-full max-w-[85%] rounded-lg border bg-background px-3 py-2 text-sm">
        <p className="font-medium">{RESEARCH_TEXTS.title}</p>
        {planned ? (
          <>
            <p className="mt-1 text-xs text-muted-foreground">{RESEARCH_TEXTS.planned}</p>
            <ol className="ml-5 list-decimal text-sm">
              {planned.questions.map((question) => (
                <li key={question} className="break-words">
                  {question}
                </li>
              ))}
            </ol>
          </>
        ) : null}
        <ul aria-label="Research steps" className="mt-1 grid gap-0.5 text-xs text-muted-foreground">
          {rest.map((step, index) => {
            const { icon: Icon, text } = stepLine(step);
            const current = live && index === rest.length - 1 && step.step !== "stopped";
            return (
              <li key={`${index}-${text}`} data-testid="research-step" className="flex items-start gap-1.5 break-words">
                {current ? (
                  <Loader2 className="mt-0.5 size-3.5 shrink-0 animate-spin" aria-hidden />
                ) : (
                  <Icon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                )}
                <span className="min-w-0">{text}</span>
                {!current && step.step !== "stopped" && step.step !== "writing" ? (
                  <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-primary" aria-label="done" />
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
    </li>
  );
}
