import type { Commitment, CommitmentDirection, CommitmentStatus } from "@sage/contracts/commitments";
import { useState } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCommitmentActions, useCommitments } from "../api/commitments";

const failed = (error: unknown) => toastError({ error, fallback: "Something went wrong" });
const selectClass = "h-9 rounded-md border bg-transparent px-2 text-sm";

export const COMMITMENTS_SECTION_TEXTS = {
  intro:
    "What you promised or were asked to do, and what others owe you, as SAGE found it in your mail, notes, documents and messages. Each one quotes the sentence it comes from.",
  empty: "Nothing here. SAGE reads new mail, notes, documents and your messages every few minutes.",
  noSource: "The source is no longer there.",
  /** Issue 47: read from the mail of someone the user never wrote to. */
  notKept: "Not yours until you keep it.",
  kept: "You kept it.",
  keep: "Keep",
} as const;

/** "Fri 27 Nov 2026" for a YYYY-MM-DD day. */
const shownDay = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A knowledge item to open at the quoted sentence. */
export interface CommitmentSourceTarget {
  itemId: number;
  title: string;
  page: number | null;
  quote: string;
}

/**
 * Settings > Commitments: the ledger, by direction and status, each with its quoted source one click away (a file
 * opens through `onOpenSource`, a message links to its conversation), Done, Dismiss, a due date and Remind me. One
 * read from a stranger's mail says so and offers only Keep or Dismiss until kept (issue 47).
 */
export function CommitmentsSection({ onOpenSource }: { onOpenSource(target: CommitmentSourceTarget): void }) {
  const [show, setShow] = useState<CommitmentDirection | "both">("both");
  const [status, setStatus] = useState<CommitmentStatus | "all">("open");
  const list = useCommitments({ show: show === "both" ? undefined : show, status });
  const commitments = list.data?.commitments;
  const actions = useCommitmentActions();
  const extraction = list.data?.extraction;
  return (
    <section aria-labelledby="commitments-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="commitments-heading" className="text-xl font-semibold">
          Commitments
        </h2>
        <p className="text-sm text-muted-foreground">{COMMITMENTS_SECTION_TEXTS.intro}</p>
      </div>
      {list.data && !list.data.extraction.available && (
        <p role="status" className="rounded-md border border-amber-500/50 p-3 text-sm">
          {list.data.extraction.message}
        </p>
      )}
      <div className="flex flex-wrap items-end gap-3">
        {extraction?.available && (
          <Button
            type="button"
            variant="outline"
            disabled={extraction.running || actions.scan.isPending}
            onClick={() => actions.scan.mutate(undefined, { onError: failed })}
          >
            {extraction.running ? "Reading new items…" : "Look for new commitments now"}
          </Button>
        )}
        <label className="grid gap-1 text-sm font-medium">
          Show
          <select className={selectClass} value={show} onChange={(event) => setShow(event.target.value as CommitmentDirection | "both")}>
            <option value="both">Everything</option>
            <option value="mine">What I owe</option>
            <option value="owed-to-me">What others owe me</option>
          </select>
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Status
          <select className={selectClass} value={status} onChange={(event) => setStatus(event.target.value as CommitmentStatus | "all")}>
            <option value="open">Open</option>
            <option value="done">Done</option>
            <option value="dismissed">Dismissed</option>
            <option value="all">All</option>
          </select>
        </label>
      </div>
      {commitments && commitments.length === 0 && <p className="text-sm text-muted-foreground">{COMMITMENTS_SECTION_TEXTS.empty}</p>}
      <ul aria-label="Commitments" className="grid gap-2">
        {commitments?.map((commitment) => (
          <CommitmentRow key={commitment.id} commitment={commitment} onOpenSource={onOpenSource} />
        ))}
      </ul>
    </section>
  );
}

function CommitmentRow({ commitment, onOpenSource }: { commitment: Commitment; onOpenSource(target: CommitmentSourceTarget): void }) {
  const actions = useCommitmentActions();
  const who = commitment.direction === "mine" ? `You owe ${commitment.counterparty}` : `${commitment.owner} owes you`;
  const setStatus = (status: CommitmentStatus) => actions.update.mutate({ id: commitment.id, change: { status } }, { onError: failed });
  const { source } = commitment;
  // A stranger's mail's line: only Keep or Dismiss until the user makes it theirs.
  const waitsForKeep = commitment.derivedFrom !== undefined && commitment.kept === false;
  const sourceLabel = `Open source: ${source.title}${source.page ? `, page ${source.page}` : ""}`;
  return (
    <li className="grid gap-2 rounded-md border p-3" aria-label={commitment.what}>
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words">{commitment.what}</p>
          <p className="text-sm text-muted-foreground">
            {who}
            {commitment.dueDate ? `, due ${shownDay(commitment.dueDate)}` : ", no due date"}
            {commitment.kind === "request" ? " (asked)" : " (promised)"}
            {commitment.status !== "open" && `, ${commitment.status}`}
          </p>
        </div>
        {commitment.status === "open" && waitsForKeep ? (
          <>
            <Button
              type="button"
              variant="outline"
              size="sm"
              aria-label={`Keep: ${commitment.what}`}
              disabled={actions.update.isPending}
              onClick={() => actions.update.mutate({ id: commitment.id, change: { kept: true } }, { onError: failed })}
            >
              {COMMITMENTS_SECTION_TEXTS.keep}
            </Button>
            <Button type="button" variant="outline" size="sm" aria-label={`Dismiss: ${commitment.what}`} onClick={() => setStatus("dismissed")}>
              Dismiss
            </Button>
          </>
        ) : commitment.status === "open" ? (
          <>
            {commitment.dueDate &&
              (commitment.reminderId ? (
                <span className="self-center text-xs text-muted-foreground">Reminder set</span>
              ) : (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-label={`Remind me: ${commitment.what}`}
                  disabled={actions.remind.isPending}
                  onClick={() => actions.remind.mutate(commitment.id, { onError: failed })}
                >
                  Remind me
                </Button>
              ))}
            <Button type="button" variant="outline" size="sm" aria-label={`Done: ${commitment.what}`} onClick={() => setStatus("done")}>
              Done
            </Button>
            <Button type="button" variant="outline" size="sm" aria-label={`Dismiss: ${commitment.what}`} onClick={() => setStatus("dismissed")}>
              Dismiss
            </Button>
          </>
        ) : (
          <Button type="button" variant="outline" size="sm" aria-label={`Reopen: ${commitment.what}`} onClick={() => setStatus("open")}>
            Reopen
          </Button>
        )}
      </div>
      {commitment.derivedFrom && (
        <p
          data-testid="commitment-from"
          className={waitsForKeep ? "text-sm font-medium break-words text-red-800 dark:text-red-200" : "text-xs break-words text-muted-foreground"}
        >
          {`From ${commitment.derivedFrom.title}. ${waitsForKeep ? COMMITMENTS_SECTION_TEXTS.notKept : COMMITMENTS_SECTION_TEXTS.kept}`}
        </p>
      )}
      <blockquote className="border-l-2 pl-3 text-sm italic break-words">&ldquo;{commitment.quote}&rdquo;</blockquote>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {source.itemId !== null ? (
          <button
            type="button"
            className="text-primary underline-offset-2 hover:underline"
            onClick={() => onOpenSource({ itemId: source.itemId!, title: source.title, page: source.page, quote: commitment.quote })}
          >
            {sourceLabel}
          </button>
        ) : source.conversationId !== null ? (
          <Link href={`/conversations/${source.conversationId}`} className="text-primary underline-offset-2 hover:underline">
            {`Open conversation: ${source.title}`}
          </Link>
        ) : (
          <span className="text-muted-foreground">{COMMITMENTS_SECTION_TEXTS.noSource}</span>
        )}
        {commitment.status === "open" && (
          <label className="flex items-center gap-2">
            Due
            <Input
              type="date"
              className="h-8 w-40"
              value={commitment.dueDate ?? ""}
              aria-label={`Due date: ${commitment.what}`}
              onChange={(event) => actions.update.mutate({ id: commitment.id, change: { dueDate: event.target.value || null } }, { onError: failed })}
            />
          </label>
        )}
      </div>
    </li>
  );
}
