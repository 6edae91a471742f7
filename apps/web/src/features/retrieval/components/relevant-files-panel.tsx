import { FileText } from "lucide-react";
import { useRelevantFiles } from "../hooks/use-relevant-files";

interface RelevantFilesPanelProps {
  conversationId: number;
  /** The text being typed in the chat box. */
  queryText: string;
  /** Opens a file's preview; without it items are not clickable. */
  onOpenFile?: (fileId: number) => void;
}

/** The conversation page's Relevant Files: files of this conversation and the system base matching the draft. */
export function RelevantFilesPanel({ conversationId, queryText, onOpenFile }: RelevantFilesPanelProps) {
  const { activeQuery, recommendations, shown } = useRelevantFiles(conversationId, queryText);

  return (
    <section aria-labelledby="relevant-files-heading" className="flex flex-col gap-2 rounded-xl border p-4">
      <h2 id="relevant-files-heading" className="font-semibold">
        Relevant Files
      </h2>
      {!activeQuery ? (
        <p className="text-sm text-muted-foreground">Type a message to see related files.</p>
      ) : recommendations.isError ? (
        <p className="text-sm text-destructive">Could not load recommendations.</p>
      ) : recommendations.isPending ? (
        <p className="text-sm text-muted-foreground">Finding relevant files...</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">No relevant files found.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Relevant files">
          {shown.map((item) => (
            <li key={item.file_id}>
              <button
                type="button"
                disabled={!onOpenFile}
                onClick={() => onOpenFile?.(item.file_id)}
                className="flex w-full flex-col gap-1 rounded-md border p-2 text-left hover:bg-accent disabled:cursor-default disabled:hover:bg-transparent"
              >
                <span className="flex items-center gap-2 text-sm font-medium">
                  <FileText className="size-4 shrink-0" aria-hidden />
                  <span className="truncate" title={item.filename}>
                    {item.filename}
                  </span>
                  <span className="ml-auto text-xs text-muted-foreground">{Math.round(item.score * 100)}%</span>
                </span>
                {item.content_preview ? (
                  <span className="line-clamp-2 text-xs text-muted-foreground" title={item.content_preview}>
                    {item.content_preview}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
