import { FileTextIcon, LinkIcon, PlusIcon, RotateCwIcon, StickyNoteIcon, Trash2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/toast-error";
import { useConversationFiles } from "../api/get-conversation-files";
import { useRetryItem } from "../api/manage-items";
import { canRetry, statusLabel } from "../knowledge-view";
import { AddKnowledgeDialog } from "./add-knowledge-dialog";
import { DeleteItemDialog } from "./item-dialogs";
import { ItemPreviewSheet } from "./item-preview-sheet";

const ICONS = { folder: FileTextIcon, file: FileTextIcon, url: LinkIcon, note: StickyNoteIcon } as const;

/** The conversation's left panel: its files, Add Knowledge, removal with confirmation, and a link to the system knowledge base. */
export function ConversationKnowledgePanel({ conversationId }: { conversationId: number | string }) {
  const id = Number(conversationId);
  const files = useConversationFiles(id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<KnowledgeItem | null>(null);
  const [previewId, setPreviewId] = useState<number | null>(null);
  // The preview follows the list, so a description edited there or a status change shows at once.
  const previewed = files.data?.find((item) => item.id === previewId) ?? null;
  const retry = useRetryItem();
  const onRetry = (item: KnowledgeItem) =>
    retry.mutateAsync(item.id).catch((error: unknown) => toastError({ error, fallback: "Failed to retry", orElse: "statusText" }));

  useEffect(() => {
    if (files.isError) toastError({ description: "Failed to load knowledge base files" });
  }, [files.isError]);

  return (
    <section aria-labelledby="conversation-knowledge-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="conversation-knowledge-heading" className="font-semibold">
        Conversation Knowledge
      </h2>
      {files.isPending ? <p className="text-sm text-muted-foreground">Loading files...</p> : null}
      {!files.isPending && (files.data ?? []).length === 0 ? <p className="text-sm text-muted-foreground">No files yet</p> : null}
      {/* One column that may shrink: a long name wraps (whole, never cut) instead of widening the panel. */}
      <ul aria-label="Conversation files" className="grid grid-cols-1 gap-1">
        {(files.data ?? []).map((item) => {
          const Icon = ICONS[item.type];
          const status = statusLabel(item);
          return (
            <li key={item.id} className="flex items-start gap-2 rounded-md px-2 py-1 text-sm hover:bg-accent/50" data-testid="conversation-file">
              <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
              <button
                type="button"
                className="min-w-0 flex-1 rounded-sm text-left [overflow-wrap:anywhere] hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                data-testid="conversation-file-name"
                onClick={() => setPreviewId(item.id)}
              >
                {item.name}
              </button>
              {status ? (
                <Badge variant={item.status === "failed" ? "destructive" : "secondary"} title={item.statusReason ?? undefined}>
                  {status}
                </Badge>
              ) : null}
              {canRetry(item) ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={`Retry ${item.name}`}
                  disabled={retry.isPending}
                  onClick={() => void onRetry(item)}
                >
                  <RotateCwIcon aria-hidden />
                </Button>
              ) : null}
              <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Remove ${item.name}`} onClick={() => setRemoving(item)}>
                <Trash2Icon aria-hidden />
              </Button>
            </li>
          );
        })}
      </ul>
      <Button type="button" variant="outline" size="sm" onClick={() => setAdding(true)}>
        <PlusIcon aria-hidden /> Add Knowledge
      </Button>
      <Link href="/settings" className="text-sm text-primary underline underline-offset-2">
        System Knowledge Base
      </Link>
      <AddKnowledgeDialog open={adding} onOpenChange={setAdding} conversationId={id} />
      <ItemPreviewSheet item={previewed} onClose={() => setPreviewId(null)} />
      <DeleteItemDialog item={removing} onClose={() => setRemoving(null)} title="Remove Knowledge File" confirmLabel="Remove" />
    </section>
  );
}
