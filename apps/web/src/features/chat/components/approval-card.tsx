import type { ApprovalRequest } from "@sage/contracts/external-tools";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { toolInWords } from "../tool-in-words";
import { ToolArguments } from "./tool-arguments";

interface ApprovalCardProps {
  approval: ApprovalRequest;
  onAnswer: (approved: boolean) => Promise<void>;
}

/**
 * A call waiting for the user: which tool and with which input, in words (the tool id and raw arguments under
 * Details, decision 038), why SAGE asks (decision 031: "This request follows
 * text from memo.txt"), and Approve / Decline. A memory SAGE proposes after such text shows the fact, Keep / Discard.
 * A call that says itself in plain words (scheduleTask) shows those lines, its arguments one click away. Everything
 * is shown as text, whatever it holds.
 */
export function ApprovalCard({ approval, onAnswer }: ApprovalCardProps) {
  const [busy, setBusy] = useState(false);
  const headingId = `approval-${approval.approvalId}`;
  const memory = approval.kind === "memory";
  const answer = async (approved: boolean) => {
    setBusy(true);
    try {
      await onAnswer(approved);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      <section
        role="group"
        aria-labelledby={headingId}
        className="flex flex-col gap-2 rounded-xl border border-amber-500/60 bg-amber-50 p-3 text-sm dark:bg-amber-950/30"
        data-testid="approval-card"
      >
        <h3 id={headingId} className="font-semibold">
          {memory ? "SAGE wants to remember this" : `SAGE wants to run ${toolInWords(approval.name)}`}
        </h3>
        {approval.reason ? <p data-testid="approval-reason">{approval.reason}</p> : null}
        {memory ? (
          <p className="rounded-md bg-background p-2 break-words" aria-label="Memory">
            {String(approval.args.content ?? "")}
          </p>
        ) : approval.summary?.length ? (
          <>
            <ul className="flex flex-col gap-1 rounded-md bg-background p-2 break-words" aria-label="What it will do">
              {approval.summary.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <details>
              <summary className="cursor-pointer text-xs text-muted-foreground">Details</summary>
              <pre className="max-h-48 overflow-auto rounded-md bg-background p-2 text-xs whitespace-pre-wrap break-words" aria-label="Arguments">
                {JSON.stringify(approval.args, null, 2)}
              </pre>
            </details>
          </>
        ) : (
          <>
            <ToolArguments args={approval.args} />
            <DetailsDisclosure>
              <p>
                Tool: <span className="font-mono">{approval.name}</span>
              </p>
              <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-background p-2 whitespace-pre-wrap break-words" aria-label="Arguments">
                {JSON.stringify(approval.args, null, 2)}
              </pre>
            </DetailsDisclosure>
          </>
        )}
        <div className="flex gap-2">
          <Button size="sm" disabled={busy} onClick={() => void answer(true)}>
            {memory ? "Keep" : "Approve"}
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void answer(false)}>
            {memory ? "Discard" : "Decline"}
          </Button>
        </div>
      </section>
    </li>
  );
}
