import { ExternalLink, Mail } from "lucide-react";

/** What draftEmail answers (apps/server draft-email-tool.ts), read defensively: a saved turn is older JSON. */
interface SavedDraft {
  account: string;
  folder: string;
  subject: string;
  to: string[];
  openUrl: string | null;
}

export function savedDraftOf(name: string, result: unknown): SavedDraft | null {
  if (name !== "draftEmail" || !result || typeof result !== "object") return null;
  const { success, draft } = result as { success?: unknown; draft?: Partial<SavedDraft> };
  if (success !== true || !draft || typeof draft.folder !== "string" || typeof draft.account !== "string") return null;
  return {
    account: draft.account,
    folder: draft.folder,
    subject: typeof draft.subject === "string" ? draft.subject : "",
    to: Array.isArray(draft.to) ? draft.to.filter((entry): entry is string => typeof entry === "string") : [],
    openUrl: typeof draft.openUrl === "string" && /^https:\/\//.test(draft.openUrl) ? draft.openUrl : null,
  };
}

/**
 * A draft the assistant saved, under its tool line: what and to whom, and "Open in mail" when the provider has a web
 * mail; otherwise the account and folder where the user's mail program shows it.
 */
export function DraftSavedNote({ draft }: { draft: SavedDraft }) {
  return (
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
  );
}
