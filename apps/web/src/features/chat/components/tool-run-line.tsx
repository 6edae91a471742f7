import type { ToolCallRecord } from "@sage/contracts/conversations";
import { Wrench } from "lucide-react";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { toolInWords, toolOutcome } from "../tool-in-words";
import { DraftSavedNote, savedDraftOf } from "./draft-saved-note";
import { ToolArguments } from "./tool-arguments";
import { ToolOutputView } from "./tool-output";

/** What came back, as text: a string as it is, else the result's readable fields, else JSON. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  if (result && typeof result === "object") {
    const record = result as Record<string, unknown>;
    for (const key of ["result", "message", "error", "text"]) if (typeof record[key] === "string" && record[key]) return record[key] as string;
  }
  return JSON.stringify(result, null, 2) ?? "";
}

/** A tool running now, with how far its server says it got (an external tool's progress reports). */
export function ToolProgressLine({ name, progress }: { name: string; progress?: { progress: number; total?: number; message?: string } }) {
  const total = progress?.total;
  const text = progress ? (total ? `${progress.progress} of ${total}` : `${progress.progress} done`) : "";
  return (
    <li data-testid="tool-running" className="flex flex-col items-start">
      <p className="flex max-w-[85%] flex-wrap items-center gap-2 rounded-lg border bg-background px-3 py-1.5 text-xs text-muted-foreground" role="status">
        <Wrench className="inline size-3.5" aria-hidden />
        <span>{`Running ${toolInWords(name)}${text ? ` - ${text}` : ""}${progress?.message ? `: ${progress.message}` : ""}`}</span>
        {progress && total ? <progress className="h-1.5 w-24" max={total} value={progress.progress} aria-label={`${toolInWords(name)} progress`} /> : null}
      </p>
    </li>
  );
}

/**
 * A tool SAGE ran, kept in the conversation (issue 33 item 9): one collapsed line, "Ran Travel: flight status -
 * LX318 lands at 14:05", that opens to the input and what came back; the tool id and raw JSON under Details.
 */
export function ToolRunLine({ call }: { call: Pick<ToolCallRecord, "name" | "args" | "result" | "approval" | "output"> }) {
  const ran = call.approval?.answer === undefined || call.approval.answer === "approved";
  const draft = ran ? savedDraftOf(call.name, call.result) : null;
  return (
    <li data-testid="tool-run" className="flex flex-col items-start">
      <details className="max-w-[85%] rounded-lg border bg-background px-3 py-1.5 text-xs text-muted-foreground">
        <summary className="cursor-pointer select-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          <Wrench className="mr-1.5 inline size-3.5 align-[-2px]" aria-hidden />
          {`${ran ? "Ran" : "Did not run"} ${toolInWords(call.name)} - ${toolOutcome(call)}`}
        </summary>
        <div className="mt-2 grid gap-2 text-foreground">
          <section aria-label="Input" className="grid gap-1">
            <p className="font-medium">Input</p>
            <ToolArguments args={call.args} label="Tool input" />
          </section>
          <section aria-label="Result" className="grid gap-1">
            <p className="font-medium">Result</p>
            <p
              tabIndex={0}
              className="max-h-48 overflow-auto rounded-md bg-muted/60 p-2 whitespace-pre-wrap break-words focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {ran ? resultText(call.result) : toolOutcome(call)}
            </p>
          </section>
          <DetailsDisclosure>
            <p>
              Tool: <span className="font-mono">{call.name}</span>
            </p>
            <pre
              tabIndex={0}
              aria-label="The call and what came back, as JSON"
              className="mt-1 max-h-48 overflow-auto rounded-md bg-muted/60 p-2 whitespace-pre-wrap break-words focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {JSON.stringify({ args: call.args, result: call.result }, null, 2)}
            </pre>
          </DetailsDisclosure>
        </div>
      </details>
      {ran && call.output && (
        <div className="mt-1 max-w-[85%] rounded-lg border bg-background px-3 py-2" data-testid="tool-output">
          <ToolOutputView output={call.output} />
        </div>
      )}
      {draft && <DraftSavedNote draft={draft} />}
    </li>
  );
}
