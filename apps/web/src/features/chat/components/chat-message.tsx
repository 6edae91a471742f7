import { citationSection } from "@sage/contracts/chat-turn";
import { TriangleAlertIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import type { Citation, MessageAttachment } from "@sage/contracts/conversations";
import { cn } from "@/lib/cn";
import { Button } from "@/components/ui/button";
import { MarkdownMessage } from "@/components/markdown-message";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { EditMessageForm } from "./edit-message-form";
import { MessageActions, type MessageActionsProps } from "./message-actions";
import { MessageAttachments } from "./message-attachments";

interface ChatMessageProps {
  /** The detail screen calls the model's role `ai`. */
  role: "user" | "ai";
  content: string;
  streaming?: boolean;
  /** A reply that is not from the model (no model configured): shown, never saved. */
  notice?: boolean;
  /** The document passages the answer drew on, shown as numbered chips under it. */
  citations?: Citation[];
  onOpenCitation?: (citation: Citation) => void;
  /** Technical detail under the bubble, one click away (decision 038). */
  details?: string;
  /** The saved message's id, so a search hit can find it. */
  messageId?: number;
  /** The message a search opened: marked until the user sends something. */
  highlighted?: boolean;
  /** Files the user sent with the message. */
  attachments?: MessageAttachment[];
  /** A saved message's row of actions (Copy, Read aloud, versions, Regenerate); none while it streams. */
  actions?: Pick<MessageActionsProps, "siblings" | "onShowBranch" | "onRegenerate" | "busy">;
  /** Sends the user's message again, edited, as a new version (decision 045). */
  onEditSend?: (content: string) => void;
  /**
   * A saved answer that is a failed model call (issue 52 item 13): shown as an error, its reason in words, with
   * Retry (a new answer to the same message, as Regenerate gives).
   */
  failure?: { onRetry?: () => void };
}

/** One chat bubble, with its citation chips and its actions. */
export function ChatMessage({
  role,
  content,
  streaming,
  notice,
  citations,
  onOpenCitation,
  details,
  messageId,
  highlighted,
  attachments,
  actions,
  onEditSend,
  failure,
}: ChatMessageProps) {
  const [editing, setEditing] = useState(false);
  if (editing && onEditSend) {
    return (
      <li data-testid="chat-message" data-role={role} data-message-id={messageId} className="flex flex-col items-end gap-1.5">
        <EditMessageForm
          initial={content}
          onCancel={() => setEditing(false)}
          onSend={(text) => {
            setEditing(false);
            onEditSend(text);
          }}
        />
      </li>
    );
  }
  if (failure) {
    return (
      <li data-testid="chat-message" data-role={role} data-message-id={messageId} data-failed="true" className="flex flex-col items-start gap-1.5">
        <div data-testid="message-body" className="max-w-[85%] rounded-2xl border border-destructive/60 bg-background px-4 py-2 text-sm text-foreground">
          <p className="flex items-center gap-2 font-medium">
            <TriangleAlertIcon aria-hidden className="size-4 shrink-0 text-destructive" />
            <span>
              <span className="sr-only">SAGE: </span>No answer: the model failed
            </span>
          </p>
          <p className="mt-1">{content}</p>
          {failure.onRetry ? (
            <Button type="button" size="sm" variant="outline" className="mt-2" disabled={actions?.busy} onClick={failure.onRetry}>
              Retry
            </Button>
          ) : null}
        </div>
        {actions?.siblings && actions.siblings.length > 1 && messageId !== undefined ? (
          <MessageActions
            role={role}
            messageId={messageId}
            content={content}
            siblings={actions.siblings}
            onShowBranch={actions.onShowBranch}
            busy={actions.busy}
          />
        ) : null}
      </li>
    );
  }
  return (
    <li
      data-testid={notice ? "chat-notice" : "chat-message"}
      data-role={role}
      data-message-id={messageId}
      aria-current={highlighted ? "true" : undefined}
      data-streaming={streaming ? "true" : undefined}
      className={cn("flex flex-col gap-1.5", role === "user" ? "items-end" : "items-start")}
    >
      {attachments?.length ? <MessageAttachments attachments={attachments} className="justify-end" /> : null}
      <div
        data-testid="message-body"
        className={cn(
          "max-w-[85%] rounded-2xl px-4 py-2 text-sm shadow-xs",
          highlighted && "ring-2 ring-amber-500 ring-offset-2 ring-offset-background",
          role === "user"
            ? "whitespace-pre-wrap bg-primary text-primary-foreground"
            : notice
              ? "border border-dashed bg-background text-muted-foreground"
              : "bg-muted text-foreground",
        )}
      >
        <span className="sr-only">{role === "user" ? "You: " : "SAGE: "}</span>
        {role === "user" ? content : <MarkdownMessage content={content} />}
      </div>
      {details ? (
        <DetailsDisclosure className="max-w-[85%]">
          <p className="font-mono">{details}</p>
        </DetailsDisclosure>
      ) : null}
      {citations?.length ? <CitationChips citations={citations} onOpen={onOpenCitation} /> : null}
      {actions && messageId !== undefined && !streaming ? (
        <MessageActions role={role} messageId={messageId} content={content} {...actions} onEdit={onEditSend ? () => setEditing(true) : undefined} />
      ) : null}
    </li>
  );
}

const CHIP_CLASS =
  "inline-flex max-w-72 items-center gap-1 rounded-full border bg-background px-2.5 py-0.5 text-xs text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";

/** What a chip that is not a file passage is, in words (the morning briefing's sources). */
const KIND_WORDS = {
  event: "Event",
  reminder: "Reminder",
  message: "Your message",
  url: "Web page",
  resource: "From a connected tool",
  contact: "Contact card",
  person: "Person",
  file: "",
} as const;

/**
 * "[1] report.pdf · page 4": the file and the page or section (the score is in the passage's Details, decision 038).
 * A chip with a link (a web page, a conversation) opens it; an event's or a reminder's chip shows what it is.
 */
function CitationChips({ citations, onOpen }: { citations: Citation[]; onOpen?: (citation: Citation) => void }) {
  return (
    <ul aria-label="Sources" className="flex max-w-[85%] flex-wrap gap-1.5">
      {citations.map((citation) => {
        const section = citationSection(citation.source);
        const parts = [citation.filename, ...(section && section !== citation.filename ? [section] : [])];
        const kind = citation.kind && citation.kind !== "file" ? KIND_WORDS[citation.kind] : "";
        const label = `Source ${citation.n}: ${kind ? `${kind}, ` : ""}${parts.join(", ")}`;
        const inner = (
          <>
            <span className="font-medium text-foreground">[{citation.n}]</span>
            <span className="truncate">{parts.join(" · ")}</span>
          </>
        );
        // The title names the whole (maybe cut) name first, then the passage.
        const title = `${parts.join(" · ")}\n${citation.content.slice(0, 300)}`;
        return (
          <li key={citation.n}>
            {citation.href?.startsWith("/") ? (
              <Link href={citation.href} data-testid="citation-chip" className={CHIP_CLASS} title={title} aria-label={label}>
                {inner}
              </Link>
            ) : citation.href?.startsWith("https://") || citation.href?.startsWith("http://") ? (
              <a
                href={citation.href}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="citation-chip"
                className={CHIP_CLASS}
                title={title}
                aria-label={label}
              >
                {inner}
              </a>
            ) : kind ? (
              <span data-testid="citation-chip" className={CHIP_CLASS} title={title} aria-label={label}>
                {inner}
              </span>
            ) : (
              <button
                type="button"
                data-testid="citation-chip"
                className={CHIP_CLASS}
                title={title}
                aria-label={label}
                disabled={!onOpen}
                onClick={() => onOpen?.(citation)}
              >
                {inner}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
