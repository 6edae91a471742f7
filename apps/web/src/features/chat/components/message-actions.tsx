import { PencilIcon, RefreshCwIcon } from "lucide-react";
import { BranchSwitcher } from "./branch-switcher";
import { CopyMessageButton } from "./copy-message-button";
import { ACTION_CLASS } from "./message-action-class";
import { ReadAloudButton } from "./read-aloud-button";

export interface MessageActionsProps {
  role: "user" | "ai";
  messageId: number;
  content: string;
  /** The message's versions (decision 045), when it has more than one. */
  siblings?: number[];
  onShowBranch?: (id: number) => void;
  onEdit?: () => void;
  onRegenerate?: () => void;
  /** A turn is running: nothing may branch meanwhile. */
  busy?: boolean;
}

/** The row under a saved message: versions, Copy, Read aloud (answers), Edit (the user's) and Regenerate (answers). */
export function MessageActions({ role, messageId, content, siblings, onShowBranch, onEdit, onRegenerate, busy }: MessageActionsProps) {
  return (
    <div className="flex flex-wrap items-center gap-0.5" data-testid="message-actions">
      {siblings && siblings.length > 1 && onShowBranch ? <BranchSwitcher id={messageId} siblings={siblings} onShow={onShowBranch} disabled={busy} /> : null}
      <CopyMessageButton content={content} />
      {role === "ai" ? <ReadAloudButton content={content} /> : null}
      {onEdit ? (
        <button type="button" className={ACTION_CLASS} aria-label="Edit message" title="Edit message" disabled={busy} onClick={onEdit}>
          <PencilIcon aria-hidden className="size-3.5" />
        </button>
      ) : null}
      {onRegenerate ? (
        <button type="button" className={ACTION_CLASS} aria-label="Regenerate answer" title="Regenerate answer" disabled={busy} onClick={onRegenerate}>
          <RefreshCwIcon aria-hidden className="size-3.5" />
        </button>
      ) : null}
    </div>
  );
}
