import { FolderPlusIcon, LayoutGridIcon, ListIcon, PlusIcon, SearchIcon } from "lucide-react";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/cn";
import { API_CONNECTION_FAILED, useFiles } from "../api/get-files";
import { useContentSearch } from "../api/search-contents";
import { shareDay, useShareFile, useShares, useStopSharing } from "../api/file-shares";
import { conversationFileCounts, folderTrail, itemLocation, itemsIn, searchKnowledge } from "../knowledge-view";
import { ConversationFilesList } from "./conversation-files-list";
import { AddKnowledgeDialog } from "./add-knowledge-dialog";
import { CreateFolderDialog, DeleteItemDialog, MoveItemDialog, RenameItemDialog } from "./item-dialogs";
import { ItemPreviewSheet } from "./item-preview-sheet";
import { KnowledgeBreadcrumb } from "./knowledge-breadcrumb";
import { KnowledgeItemCard, type ItemAction, type ItemSharing } from "./knowledge-item-card";

interface KnowledgeBaseSectionProps {
  /** The vector database buttons (Reset, Export, Re-vectorize, Import), supplied by the retrieval feature. */
  vectorActions?: ReactNode;
  /** A conversation's name, to say where a conversation's file found by search belongs. */
  conversationName?: (conversationId: number) => string | undefined;
}

function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** Settings > Knowledge Base: browse the system knowledge by folder, search, add, and manage items. */
export function KnowledgeBaseSection({ vectorActions, conversationName }: KnowledgeBaseSectionProps) {
  const files = useFiles();
  const [folderId, setFolderId] = useState(0);
  const [search, setSearch] = useState("");
  const [view, setView] = useState<"grid" | "list">("grid");
  const [adding, setAdding] = useState(false);
  const [creatingFolder, setCreatingFolder] = useState(false);
  const [renaming, setRenaming] = useState<KnowledgeItem | null>(null);
  const [moving, setMoving] = useState<KnowledgeItem | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeItem | null>(null);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const shares = useShares();
  const shareFile = useShareFile();
  const stopSharing = useStopSharing();
  // The link is known only when it is made (the server keeps its hash): "Copy link" until the screen is left.
  const [madeLinks, setMadeLinks] = useState<ReadonlyMap<number, string>>(new Map());

  useEffect(() => {
    if (!files.isError) return;
    const message =
      files.error instanceof Error && files.error.message === API_CONNECTION_FAILED ? API_CONNECTION_FAILED : "Failed to load knowledge base files";
    toastError({ description: message });
  }, [files.isError, files.error]);

  const items = useMemo(() => files.data ?? [], [files.data]);
  const trail = folderTrail(items, folderId);
  const searching = search.trim() !== "";
  // Contents are searched through the index once typing pauses; names match at once.
  const contentQuery = useDebouncedValue(search.trim(), 300);
  const contents = useContentSearch(searching ? contentQuery : "");
  const matches = searching ? searchKnowledge(items, search, contentQuery === search.trim() ? contents.data : undefined) : null;
  const visible = matches ? matches.map((found) => found.item) : itemsIn(items, folderId);
  const matchOf = new Map(matches?.map((found) => [found.item.id, found.match]));
  // Conversation files live in their conversations; the root says where they are (issue 33 item 6).
  const inConversations = useMemo(() => conversationFileCounts(items), [items]);
  const previewItem = items.find((item) => item.id === previewId) ?? null;

  const open = (item: KnowledgeItem) => {
    if (item.type === "folder") {
      setSearch("");
      setFolderId(item.id);
    } else {
      setPreviewId(item.id);
    }
  };

  const copyLink = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: "Link copied", description: "Anyone with the link can open the file until it expires." });
    } catch {
      toastError({ title: "Could not copy", description: "Your browser did not let SAGE use the clipboard." });
    }
  };

  const share = async (item: KnowledgeItem) => {
    try {
      const made = await shareFile.mutateAsync(item.id);
      setMadeLinks((links) => new Map(links).set(item.id, made.url));
      toast({ title: "Shared by link", description: `Anyone with the link can open ${item.name} until ${shareDay(made.expiresAt)}.` });
    } catch (error) {
      toastError({ error, fallback: "Failed to share the file" });
    }
  };

  /** Stops every link to the file: "Stop sharing" means nobody opens it any more. */
  const stop = async (item: KnowledgeItem) => {
    try {
      for (const link of shares.data?.filter((each) => each.fileId === item.id) ?? []) await stopSharing.mutateAsync(link.id);
      setMadeLinks((links) => {
        const next = new Map(links);
        next.delete(item.id);
        return next;
      });
      toast({ title: "Stopped sharing", description: `The link to ${item.name} no longer opens it.` });
    } catch (error) {
      toastError({ error, fallback: "Failed to stop sharing" });
    }
  };

  const sharingOf = (item: KnowledgeItem): ItemSharing | undefined => {
    const links = shares.data?.filter((each) => each.fileId === item.id) ?? [];
    if (links.length === 0) return undefined;
    const url = madeLinks.get(item.id);
    return {
      until: shareDay(
        links
          .map((link) => link.expiresAt)
          .sort()
          .at(-1)!,
      ),
      ...(url ? { url } : {}),
      onCopy: () => void (url && copyLink(url)),
      onStop: () => void stop(item),
      stopping: stopSharing.isPending,
    };
  };

  const onAction = (action: ItemAction, item: KnowledgeItem) => {
    if (action === "share") void share(item);
    else if (action === "rename") setRenaming(item);
    else if (action === "move") setMoving(item);
    else if (action === "delete") setDeleting(item);
    else window.location.assign(`/api/files/${item.id}/download`);
  };

  return (
    <section aria-label="Knowledge Base" className="grid grid-cols-1 gap-4">
      {/* The trail is the heading: 'Knowledge Base' at the root, then 'Knowledge Base > Folder'. */}
      <KnowledgeBreadcrumb trail={trail} onNavigate={setFolderId} asHeading />
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-48 flex-1">
          <SearchIcon className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input
            aria-label="Search knowledge base"
            placeholder="Search knowledge base..."
            className="pl-8"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="flex rounded-md border" role="group" aria-label="View mode">
          <Button
            type="button"
            variant={view === "grid" ? "secondary" : "ghost"}
            size="icon"
            aria-label="Grid view"
            aria-pressed={view === "grid"}
            onClick={() => setView("grid")}
          >
            <LayoutGridIcon aria-hidden />
          </Button>
          <Button
            type="button"
            variant={view === "list" ? "secondary" : "ghost"}
            size="icon"
            aria-label="List view"
            aria-pressed={view === "list"}
            onClick={() => setView("list")}
          >
            <ListIcon aria-hidden />
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => setAdding(true)}>
          <PlusIcon aria-hidden /> Add Knowledge
        </Button>
        <Button type="button" variant="outline" onClick={() => setCreatingFolder(true)}>
          <FolderPlusIcon aria-hidden /> Create Folder
        </Button>
        {vectorActions}
      </div>

      {files.isPending ? <p className="text-sm text-muted-foreground">Loading knowledge base...</p> : null}
      {!files.isPending && visible.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {!searching && folderId === 0 && inConversations.length > 0
            ? "The knowledge base has no items of its own yet. Your conversations' files are listed below."
            : !searching
              ? "This folder is empty"
              : contents.isFetching || contentQuery !== search.trim()
                ? "Searching names and contents..."
                : "No items match your search"}
        </p>
      ) : null}
      <ul aria-label="Knowledge items" className={cn("grid gap-2", view === "grid" ? "grid-cols-1 sm:grid-cols-2 xl:grid-cols-3" : "grid-cols-1")}>
        {visible.map((item) => (
          <KnowledgeItemCard
            key={item.id}
            item={item}
            view={view}
            location={searching ? itemLocation(item, items, conversationName) : undefined}
            match={matchOf.get(item.id)}
            onOpen={open}
            onAction={onAction}
            sharing={sharingOf(item)}
          />
        ))}
      </ul>

      {!searching && folderId === 0 && inConversations.length > 0 ? (
        <ConversationFilesList conversations={inConversations} conversationName={conversationName} />
      ) : null}

      <AddKnowledgeDialog key={`add-${folderId}`} open={adding} onOpenChange={setAdding} conversationId={0} initialFolder={{ id: folderId, trail }} />
      <CreateFolderDialog
        open={creatingFolder}
        onClose={() => setCreatingFolder(false)}
        parent={{ id: folderId, path: trail.map((folder) => folder.name).join("/") }}
      />
      <RenameItemDialog item={renaming} onClose={() => setRenaming(null)} />
      <MoveItemDialog item={moving} onClose={() => setMoving(null)} />
      <DeleteItemDialog
        item={deleting}
        onClose={() => {
          if (deleting && (deleting.id === folderId || trail.some((folder) => folder.id === deleting.id))) setFolderId(0);
          setDeleting(null);
        }}
      />
      <ItemPreviewSheet item={previewItem} onClose={() => setPreviewId(null)} />
    </section>
  );
}
