import { CopyIcon, FileTextIcon, FolderIcon, Link2Icon, LinkIcon, MoreVerticalIcon, RotateCwIcon, StickyNoteIcon } from "lucide-react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toastError } from "@/components/ui/toast-error";
import { cn } from "@/lib/cn";
import { useRetryItem } from "../api/manage-items";
import { canRetry, formatSize, preview, statusLabel } from "../knowledge-view";

const ICONS = { folder: FolderIcon, file: FileTextIcon, url: LinkIcon, note: StickyNoteIcon } as const;

export type ItemAction = "rename" | "move" | "download" | "share" | "delete";

/** A file's live links, as the card shows them: until when, and the link itself just after it was made. */
export interface ItemSharing {
  /** "Sun 13 Dec": the last of its links ends then. */
  until: string;
  /** Known only right after sharing from this screen (the server keeps only the link's hash). */
  url?: string;
  onCopy(): void;
  onStop(): void;
  stopping: boolean;
}

interface KnowledgeItemCardProps {
  item: KnowledgeItem;
  view: "grid" | "list";
  /** Where the item sits (search results), shown under its name. */
  location?: string;
  /** Under a search result: what matched, its name or its text. */
  match?: string;
  onOpen: (item: KnowledgeItem) => void;
  onAction: (action: ItemAction, item: KnowledgeItem) => void;
  /** Set while the file is shared by link. */
  sharing?: ItemSharing;
}

/** One entry: opens a folder or the preview; its menu has Rename, Move to..., Download (not for folders), Delete. */
export function KnowledgeItemCard({ item, view, location, match, onOpen, onAction, sharing }: KnowledgeItemCardProps) {
  const Icon = ICONS[item.type];
  const status = statusLabel(item);
  const detail = item.type === "folder" ? "Folder" : item.type === "note" ? preview(item.content, 100) : item.type === "url" ? item.url : formatSize(item.size);
  const retry = useRetryItem();
  const onRetry = async () => {
    try {
      await retry.mutateAsync(item.id);
    } catch (error) {
      toastError({ error, fallback: "Failed to retry", orElse: "statusText" });
    }
  };
  return (
    <li
      data-testid="knowledge-item"
      data-item-name={item.name}
      // The menu stays beside the name in both views (a card is a taller row), never floating below it.
      className={cn("relative flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border bg-card p-3 hover:bg-accent/40", view === "grid" && "min-h-20")}
    >
      <button
        type="button"
        className="flex min-w-0 flex-1 items-center gap-3 text-left"
        onClick={() => onOpen(item)}
        aria-label={item.type === "folder" ? `Open folder ${item.name}` : `Preview ${item.name}`}
      >
        <Icon className={cn("size-5 shrink-0", item.type === "folder" ? "text-amber-500" : "text-muted-foreground")} aria-hidden />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium" title={item.name}>
            {item.name}
          </span>
          <span className="block truncate text-xs text-muted-foreground" title={detail ?? undefined}>
            {detail}
          </span>
          {location ? (
            <span className="block truncate text-xs text-muted-foreground" title={location} data-testid="item-location">
              {location}
            </span>
          ) : null}
          {match ? (
            <span className="block truncate text-xs text-muted-foreground" title={match} data-testid="item-match">
              {match}
            </span>
          ) : null}
        </span>
      </button>
      <div className="flex shrink-0 items-center gap-1">
        {status ? (
          <Badge variant={item.status === "failed" ? "destructive" : "secondary"} title={item.statusReason ?? undefined} data-testid="item-status">
            {status}
          </Badge>
        ) : null}
        {canRetry(item) ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={`Retry ${item.name}`}
            disabled={retry.isPending}
            onClick={() => void onRetry()}
          >
            <RotateCwIcon aria-hidden />
          </Button>
        ) : null}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button type="button" variant="ghost" size="icon" className="size-8" aria-label={`Actions for ${item.name}`}>
              <MoreVerticalIcon aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => onAction("rename", item)}>Rename</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onAction("move", item)}>Move to...</DropdownMenuItem>
            {item.type !== "folder" ? <DropdownMenuItem onSelect={() => onAction("download", item)}>Download</DropdownMenuItem> : null}
            {item.type === "file" || item.type === "note" ? <DropdownMenuItem onSelect={() => onAction("share", item)}>Share by link</DropdownMenuItem> : null}
            <DropdownMenuItem variant="destructive" onSelect={() => onAction("delete", item)}>
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {item.status === "failed" && item.statusReason ? <p className="basis-full text-xs text-destructive">{item.statusReason}</p> : null}
      {sharing ? (
        <div className="flex basis-full flex-wrap items-center gap-2 text-xs" data-testid="item-sharing">
          <Link2Icon className="size-4 text-muted-foreground" aria-hidden />
          <span>Shared by link until {sharing.until}</span>
          {sharing.url ? (
            <Button type="button" variant="outline" size="sm" className="h-7" aria-label={`Copy link to ${item.name}`} onClick={sharing.onCopy}>
              <CopyIcon aria-hidden /> Copy link
            </Button>
          ) : null}
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="h-7"
            aria-label={`Stop sharing ${item.name}`}
            disabled={sharing.stopping}
            onClick={sharing.onStop}
          >
            Stop sharing
          </Button>
        </div>
      ) : null}
    </li>
  );
}
