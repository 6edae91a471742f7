import { ExternalLink, Mail } from "lucide-react";

/** What draftEmail answers (apps/server draft-email-tool.ts), read defensively: a saved turn is older JSON. */
interface SavedDraft {
  account: string;
  folder: string;
  subject: string;
  to: string[];
  openUrl: string | null;
  /** Issue 47: the parts whose values came from someone else's text, and where from (absent: all the user's). */
  fromContent: string[];
  derivedFrom: string | null;
}

/** How the note names a content-derived part of a draft. */
const PART_WORDS: Record<string, string> = { to: "recipient", cc: "copy", subject: "subject", body: "text" };

/** "Its recipient and text come from the mail from Bob of 3 Dec, not from you." */
export function draftOriginText(draft: Pick<SavedDraft, "fromContent" | "derivedFrom">): string | null {
  const parts = draft.fromContent.map((part) => PART_WORDS[part]).filter((word): word is string => word !== undefined);
  if (parts.length === 0) return null;
  const named = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `Its ${named} ${parts.length === 1 ? "comes" : "come"} from ${draft.derivedFrom ?? "text someone else wrote"}, not from you. Check it before you send it.`;
}

export function savedDraftOf(name: string, result: unknown): SavedDraft | null {
  if (name !== "draftEmail" || !result || typeof result !== "object") return null;
  const { success, draft } = result as { success?: unknown; draft?: Partial<Omit<SavedDraft, "derivedFrom">> & { derivedFrom?: { title?: unknown } } };
  if (success !== true || !draft || typeof draft.folder !== "string" || typeof draft.account !== "string") return null;
  return {
    account: draft.account,
    folder: draft.folder,
    subject: typeof draft.subject === "string" ? draft.subject : "",
    to: Array.isArray(draft.to) ? draft.to.filter((entry): entry is string => typeof entry === "string") : [],
    openUrl: typeof draft.openUrl === "string" && /^https:\/\//.test(draft.openUrl) ? draft.openUrl : null,
    fromContent: Array.isArray(draft.fromContent) ? draft.fromContent.filter((entry): entry is string => typeof entry === "string") : [],
    derivedFrom: typeof draft.derivedFrom?.title === "string" ? draft.derivedFrom.title : null,
  };
}

/**
 * A draft the assistant saved, under its tool line: what and to whom, and "Open in mail" when the provider has a web
 * mail; otherwise the account and folder where the user's mail program shows it. A draft carrying values from
 * someone else's text says which and where from (issue 47).
 */
export function DraftSavedNote({ draft }: { draft: SavedDraft }) {
  const origin = draftOriginText(draft);
  return (
    <>
      <p data-testid="draft-saved" className="mt-1 flex max-w-[85%] flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <Mail className="size-3.5" aria-hidden />
        <span>
          Draft saved, not sent: <span className="font-medium text-foreground">{draft.subject || "(no subject)"}</span>
          {draft.to.length > 0 && ` to ${draft.to.join(", ")}`}.
        </span>
        {draft.openUrl ? (
          <a
            href={draft.openUrl}
            target="_blank"
            rel="noreferrer noopener"
            className="inline-flex items-center gap-1 rounded font-medium text-foreground underline underline-offset-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            Open in mail
            <ExternalLink className="size-3" aria-hidden />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : (
          <span>{`It is in the ${draft.folder} folder of ${draft.account}.`}</span>
        )}
      </p>
      {origin && (
        <p data-testid="draft-from" className="mt-1 max-w-[85%] text-xs font-medium break-words text-red-800 dark:text-red-200">
          {origin}
        </p>
      )}
    </>
  );
}
