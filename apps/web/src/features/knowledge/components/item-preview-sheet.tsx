import { DownloadIcon, ExternalLinkIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { citationSection } from "@sage/contracts/chat-turn";
import type { Citation } from "@sage/contracts/conversations";
import { opensInBrowser, type KnowledgeItem } from "@sage/contracts/knowledge";
import { MarkdownMessage } from "@/components/markdown-message";
import { Button } from "@/components/ui/button";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { Textarea } from "@/components/ui/textarea";
import { toastError } from "@/components/ui/toast-error";
import { useItemText } from "../api/get-item-text";
import { useUpdateItem } from "../api/manage-items";
import { DocumentText } from "./document-text";
import { formatSize, pageListLabel, statusLabel } from "../knowledge-view";

interface ItemPreviewSheetProps {
  item: KnowledgeItem | null;
  onClose: () => void;
  /** A passage of the item an answer cited, shown first. */
  passage?: Pick<Citation, "n" | "source" | "content" | "score">;
}

/**
 * The side sheet: a cited passage when one was opened, name, size, description (editable), the URL or the note's
 * content, and a document's text by page, slide or sheet (the cited one in view) with Download, and Open where the
 * browser can show the file itself.
 */
export function ItemPreviewSheet({ item, onClose, passage }: ItemPreviewSheetProps) {
  const [editing, setEditing] = useState(false);
  const [description, setDescription] = useState("");
  const update = useUpdateItem();
  const text = useItemText(item && item.type !== "folder" && item.type !== "note" ? item.id : undefined, item?.chunkCount ?? 0);
  useEffect(() => {
    setEditing(false);
    setDescription(item?.description ?? "");
  }, [item]);

  const save = async () => {
    if (!item) return;
    try {
      await update.mutateAsync({ id: item.id, changes: { description } });
      setEditing(false); // no toast: the new description is on screen
    } catch (error) {
      toastError({ error, fallback: "Failed to update description", orElse: "statusText" });
    }
  };

  const status = item ? statusLabel(item) : null;
  return (
    <Sheet open={!!item} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-[400px] overflow-y-auto sm:max-w-[540px]">
        <SheetHeader>
          <SheetTitle>{item?.name}</SheetTitle>
          <SheetDescription>{item ? `${item.type === "folder" ? "Folder" : formatSize(item.size)} · ${item.path}` : ""}</SheetDescription>
        </SheetHeader>
        {item ? (
          <dl className="grid gap-4 px-4 pb-4 text-sm">
            {passage ? (
              <div>
                <dt className="font-medium">{`Cited passage [${passage.n}] · ${citationSection(passage.source)}`}</dt>
                <dd className="grid gap-1">
                  <blockquote className="mt-1 border-l-4 border-primary/60 bg-muted/50 p-3" data-testid="preview-cited-passage">
                    <MarkdownMessage content={passage.content} quoted />
                  </blockquote>
                  <DetailsDisclosure>
                    <p>Relevance score: {passage.score.toFixed(4)} (search ranking, 0 to 1)</p>
                    <p>Source: {passage.source}</p>
                  </DetailsDisclosure>
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="font-medium">Size</dt>
              <dd>{formatSize(item.size)}</dd>
            </div>
            {status ? (
              <div>
                <dt className="font-medium">Status</dt>
                <dd>
                  {status}
                  {item.statusReason ? `: ${item.statusReason}` : ""}
                </dd>
              </div>
            ) : null}
            {item.ocrPages?.length || item.ocrFailedPages?.length ? (
              <div>
                <dt className="font-medium">Text recognition</dt>
                <dd data-testid="preview-ocr">
                  {item.ocrPages?.length ? <p>Read by text recognition: {pageListLabel(item.ocrPages)}</p> : null}
                  {item.ocrFailedPages?.length ? <p>Could not be read: {pageListLabel(item.ocrFailedPages)}</p> : null}
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="font-medium">Description</dt>
              <dd>
                {editing ? (
                  <div className="grid gap-2">
                    <Textarea aria-label="Description" value={description} onChange={(event) => setDescription(event.target.value)} rows={4} />
                    <div className="flex justify-end gap-2">
                      <Button type="button" variant="outline" size="sm" onClick={() => setEditing(false)}>
                        Cancel
                      </Button>
                      <Button type="button" size="sm" disabled={update.isPending} onClick={() => void save()}>
                        Save
                      </Button>
                    </div>
                  </div>
                ) : (
                  <div className="flex items-start justify-between gap-2">
                    <p className="whitespace-pre-wrap" data-testid="preview-description">
                      {item.description || "No description"}
                    </p>
                    <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
                      Edit Description
                    </Button>
                  </div>
                )}
              </dd>
            </div>
            {item.type === "url" && item.url ? (
              <div>
                <dt className="font-medium">URL</dt>
                <dd>
                  <a href={item.url} target="_blank" rel="noreferrer noopener" className="break-all text-primary underline">
                    {item.url}
                  </a>
                </dd>
              </div>
            ) : null}
            {item.type !== "folder" && item.type !== "note" && text.data?.length ? (
              <div>
                <dt className="font-medium">Document text</dt>
                <dd>
                  <DocumentText sections={text.data} filename={item.name} focusSource={passage?.source} />
                </dd>
              </div>
            ) : null}
            {item.type === "note" ? (
              <div>
                <dt className="font-medium">Content</dt>
                <dd className="rounded-md bg-muted p-3 whitespace-pre-wrap" data-testid="preview-note-content">
                  {item.content}
                </dd>
              </div>
            ) : null}
          </dl>
        ) : null}
        {/* Outside the list of terms: a definition list holds only dt/dd groups (axe). */}
        {item && item.type !== "folder" && item.type !== "url" ? (
          <div className="flex flex-wrap gap-2 px-4 pb-4">
            <Button asChild variant="outline" size="sm">
              <a href={`/api/files/${item.id}/download`} download={item.name}>
                <DownloadIcon aria-hidden /> Download
              </a>
            </Button>
            {opensInBrowser(item.type === "note" ? `${item.name}.txt` : item.name) ? (
              <Button asChild variant="outline" size="sm">
                <a href={`/api/files/${item.id}/download?inline=1`} target="_blank" rel="noopener noreferrer">
                  <ExternalLinkIcon aria-hidden /> Open
                </a>
              </Button>
            ) : null}
          </div>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
