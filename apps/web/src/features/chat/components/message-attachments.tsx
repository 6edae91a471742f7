import type { MessageAttachment } from "@sage/contracts/conversations";
import { FileTextIcon, LoaderCircleIcon, XIcon } from "lucide-react";
import { cn } from "@/lib/cn";

/** A file in the composer that is still uploading has no id of its own yet (a negative one stands in). */
export type ComposerAttachment = MessageAttachment & { pending?: boolean };

const isPicture = (attachment: MessageAttachment) => attachment.mimeType?.startsWith("image/") ?? false;

/** The files that went with a message, or wait in the composer: pictures as thumbnails, other files by name. */
export function MessageAttachments({
  attachments,
  onRemove,
  className,
}: {
  attachments: ComposerAttachment[];
  /** In the composer: each file can be taken off again. */
  onRemove?: (fileId: number) => void;
  className?: string;
}) {
  return (
    <ul aria-label="Attached files" className={cn("flex max-w-[85%] flex-wrap gap-2", className)} data-testid="message-attachments">
      {attachments.map((attachment) => (
        <li key={attachment.fileId} className="relative flex items-center gap-1.5 rounded-md border bg-background p-1 text-xs" title={attachment.name}>
          {attachment.pending ? (
            <span className="flex items-center gap-1 px-1 py-0.5 text-muted-foreground" role="status">
              <LoaderCircleIcon className="size-4 shrink-0 animate-spin" aria-hidden />
              <span className="max-w-48 truncate">Attaching {attachment.name}...</span>
            </span>
          ) : isPicture(attachment) ? (
            <img src={`/api/files/${attachment.fileId}/download`} alt={attachment.name} className="max-h-32 max-w-48 rounded object-contain" />
          ) : (
            <span className="flex items-center gap-1 px-1 py-0.5">
              <FileTextIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="max-w-48 truncate">{attachment.name}</span>
            </span>
          )}
          {onRemove && !attachment.pending ? (
            <button
              type="button"
              aria-label={`Remove ${attachment.name}`}
              onClick={() => onRemove(attachment.fileId)}
              className="rounded-full p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <XIcon className="size-3.5" aria-hidden />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
