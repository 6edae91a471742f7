import { APPROVAL_CARD_TEXTS, type ApprovalDecision, type ApprovalRequest } from "@sage/contracts/external-tools";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { cn } from "@/lib/cn";
import { toolInWords } from "../tool-in-words";
import { ToolArguments } from "./tool-arguments";

/** Details on the red card: the muted grey reads at 4.3:1 on its red-50, under WCAG AA's 4.5:1; this dark red does. */
const RISKY_DETAIL = "text-red-900 dark:text-red-100";

interface ApprovalCardProps {
  approval: ApprovalRequest;
  /** `confirm` comes with an approved content-derived card, after its second confirmation. */
  onAnswer: (approved: boolean, confirm?: ApprovalDecision["confirm"]) => Promise<void>;
}

/**
 * A call waiting for the user: which tool and with which input, in words (the tool id and raw arguments under
 * Details, decision 038), why SAGE asks (decision 031: "This request follows
 * text from memo.txt"), and Approve / Decline. A memory SAGE proposes after such text shows the fact, Keep / Discard.
 * A call that says itself in plain words (scheduleTask) shows those lines, its arguments one click away. Everything
 * is shown as text, whatever it holds.
 * Issue 47: a card whose values are the user's own is calm ("As you asked: ..."); one carrying a value that came
 * from someone else's text is red, names the source of each such value, and is approved only after a second,
 * deliberate confirmation (the server answers 409 to an Approve without it).
 */
export function ApprovalCard({ approval, onAnswer }: ApprovalCardProps) {
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const headingId = `approval-${approval.approvalId}`;
  const memory = approval.kind === "memory";
  const risky = approval.risk === "content-derived";
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const answer = async (approved: boolean, confirm?: ApprovalDecision["confirm"]) => {
    setBusy(true);
    try {
      await onAnswer(approved, confirm);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      <section
        role="group"
        aria-labelledby={headingId}
        className={
          risky
            ? "flex flex-col gap-2 rounded-xl border-2 border-red-600 bg-red-50 p-3 text-sm dark:bg-red-950/40"
            : "flex flex-col gap-2 rounded-xl border border-border bg-muted/40 p-3 text-sm"
        }
        data-testid="approval-card"
        data-risk={approval.risk}
      >
        <h3 id={headingId} className="font-semibold">
          {memory ? "SAGE wants to remember this" : `SAGE wants to run ${toolInWords(approval.name)}`}
        </h3>
        {risky ? (
          <p className="font-semibold text-red-800 dark:text-red-200" data-testid="approval-warning">
            {APPROVAL_CARD_TEXTS.contentDerivedTitle}
          </p>
        ) : null}
        {approval.reason ? (
          <p data-testid="approval-reason" className={risky ? "text-red-900 dark:text-red-100" : undefined}>
            {approval.reason}
          </p>
        ) : null}
        {approval.hints?.length ? (
          <ul
            className={cn("flex flex-col gap-0.5 text-xs", risky ? RISKY_DETAIL : "text-muted-foreground")}
            aria-label="What the tool's server says it does"
            data-testid="approval-hints"
          >
            {approval.hints.map((hint) => (
              <li key={hint}>{hint}</li>
            ))}
          </ul>
        ) : null}
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
              <summary className={cn("cursor-pointer text-xs", risky ? RISKY_DETAIL : "text-muted-foreground")}>Details</summary>
              <pre className="max-h-48 overflow-auto rounded-md bg-background p-2 text-xs whitespace-pre-wrap break-words" aria-label="Arguments">
                {JSON.stringify(approval.args, null, 2)}
              </pre>
            </details>
          </>
        ) : (
          <>
            <ToolArguments args={approval.args} />
            <DetailsDisclosure className={risky ? RISKY_DETAIL : undefined}>
              <p>
                Tool: <span className="font-mono">{approval.name}</span>
              </p>
              <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-background p-2 whitespace-pre-wrap break-words" aria-label="Arguments">
                {JSON.stringify(approval.args, null, 2)}
              </pre>
            </DetailsDisclosure>
          </>
        )}
        {confirming ? (
          <div
            role="alertdialog"
            aria-label={APPROVAL_CARD_TEXTS.confirmQuestion}
            className="flex flex-col gap-2 rounded-md border border-red-600 bg-background p-2"
          >
            <p>{APPROVAL_CARD_TEXTS.confirmQuestion}</p>
            <div className="flex gap-2">
              <Button ref={confirmRef} size="sm" variant="destructive" disabled={busy} onClick={() => void answer(true, "content-derived")}>
                {APPROVAL_CARD_TEXTS.confirmApprove}
              </Button>
              <Button size="sm" variant="outline" disabled={busy} onClick={() => setConfirming(false)}>
                {APPROVAL_CARD_TEXTS.confirmCancel}
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex gap-2">
            <Button size="sm" disabled={busy} onClick={() => (risky ? setConfirming(true) : void answer(true))}>
              {memory ? "Keep" : "Approve"}
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => void answer(false)}>
              {memory ? "Discard" : "Decline"}
            </Button>
          </div>
        )}
      </section>
    </li>
  );
}
