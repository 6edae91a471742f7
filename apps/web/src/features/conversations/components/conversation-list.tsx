import type { Conversation } from "@sage/contracts/conversations";
import { LayoutGridIcon, ListIcon, PlusIcon, SearchIcon, Trash2Icon } from "lucide-react";
import { useMemo, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ToastAction } from "@/components/ui/toast";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/cn";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { useCreateConversation } from "../api/create-conversation";
import { useDeleteConversation } from "../api/delete-conversation";
import { useRestoreConversation } from "../api/deleted-conversations";
import { MIN_MESSAGE_SEARCH, useMessageSearch } from "../api/search-messages";
import { useConversations } from "../api/get-conversations";
import { useUpdateConversation } from "../api/update-conversation";
import { filterAndSortConversations, type ConversationSort, type ConversationView } from "../conversation-list-view";
import { ConversationItem } from "./conversation-item";
import { DeleteConversationDialog } from "./delete-conversation-dialog";
import { EditConversationNameDialog } from "./edit-conversation-name-dialog";
import { MessageSearchHits } from "./message-search-hits";
import { RecentlyDeletedDialog } from "./recently-deleted-dialog";

const success = (description: string) => toast({ title: "Success", description });
const failure = (description: string) => toastError({ description });

/** The conversation list: controls, grid or list, item menus, dialogs, empty states and toasts. */
export function ConversationList() {
  const [, navigate] = useLocation();
  const conversations = useConversations();
  const create = useCreateConversation();
  const update = useUpdateConversation();
  const remove = useDeleteConversation();
  const restore = useRestoreConversation();
  const [showDeleted, setShowDeleted] = useState(false);
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<ConversationSort>("recent");
  const [view, setView] = useState<ConversationView>("grid");
  const [editing, setEditing] = useState<Conversation | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);

  // Names are filtered as the user types; messages are searched on the server once typing pauses (issue 32).
  const messageQuery = useDebouncedValue(search.trim(), 300);
  const messageHits = useMessageSearch(messageQuery);
  const hits = messageQuery && search.trim() ? (messageHits.data ?? []) : [];
  // Until the messages were searched for what is typed, "nothing found" would be said too early.
  const searchingMessages = search.trim().length >= MIN_MESSAGE_SEARCH && (messageQuery !== search.trim() || messageHits.isFetching);
  const visible = useMemo(() => filterAndSortConversations(conversations.data ?? [], search, sort), [conversations.data, search, sort]);

  function createNew() {
    create.mutate(undefined, {
      onSuccess: (conversation) => {
        success("New conversation created");
        navigate(`/conversations/${conversation.id}`);
      },
      onError: () => failure("Failed to create conversation"),
    });
  }

  function saveName(name: string) {
    if (!editing) return;
    update.mutate(
      { id: editing.id, name },
      {
        onSuccess: () => {
          success("Conversation name updated");
          setEditing(null);
        },
        onError: () => failure("Failed to update conversation name"),
      },
    );
  }

  function togglePin(conversation: Conversation) {
    const pinned = !conversation.pinned;
    update.mutate(
      { id: conversation.id, pinned },
      {
        onSuccess: () => success(pinned ? "Conversation pinned to the top" : "Conversation unpinned"),
        onError: () => failure(pinned ? "Failed to pin conversation" : "Failed to unpin conversation"),
      },
    );
  }

  function confirmDelete() {
    if (!deleting) return;
    const id = deleting.id;
    remove.mutate(id, {
      onSuccess: () => {
        // The spec's toast, with the way back: the conversation is kept, whole, for 30 days (decision 035).
        toast({
          title: "Success",
          description: "Conversation and all related data deleted successfully",
          action: (
            <ToastAction
              altText="Undo: restore the conversation"
              onClick={() => restore.mutate(id, { onError: () => failure("Failed to restore conversation") })}
            >
              Undo
            </ToastAction>
          ),
        });
        setDeleting(null);
      },
      onError: () => failure("Failed to delete conversation"),
    });
  }

  let body;
  if (conversations.isPending) body = <p className="py-12 text-center text-muted-foreground">Loading conversations...</p>;
  else if (conversations.isError) body = <p className="py-12 text-center text-destructive">Failed to fetch conversations</p>;
  else if ((conversations.data ?? []).length === 0) body = <p className="py-12 text-center text-muted-foreground">No conversations yet. Start a new one!</p>;
  else if (visible.length === 0 && hits.length > 0)
    body = null; // found in messages only: those are the results (issue 52 item 8)
  else if (visible.length === 0 && searchingMessages) body = <p className="py-12 text-center text-muted-foreground">Searching messages...</p>;
  else if (visible.length === 0) body = <p className="py-12 text-center text-muted-foreground">No conversations found matching your search</p>;
  else
    body = (
      <ul
        aria-label="Conversations"
        data-view={view}
        className={cn(view === "grid" ? "grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4" : "flex flex-col gap-2")}
      >
        {visible.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            view={view}
            onEditName={() => setEditing(conversation)}
            onDelete={() => setDeleting(conversation)}
            onTogglePin={() => togglePin(conversation)}
          />
        ))}
      </ul>
    );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={createNew} disabled={create.isPending}>
          <PlusIcon aria-hidden /> New Conversation
        </Button>
        <div className="relative min-w-48 flex-1">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            aria-label="Search conversations"
            placeholder="Search conversations..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
        <div className="flex rounded-md border" role="group" aria-label="View">
          <Button
            variant={view === "grid" ? "secondary" : "ghost"}
            size="icon"
            aria-label="Grid view"
            aria-pressed={view === "grid"}
            onClick={() => setView("grid")}
          >
            <LayoutGridIcon aria-hidden />
          </Button>
          <Button
            variant={view === "list" ? "secondary" : "ghost"}
            size="icon"
            aria-label="List view"
            aria-pressed={view === "list"}
            onClick={() => setView("list")}
          >
            <ListIcon aria-hidden />
          </Button>
        </div>
        <select
          aria-label="Sort conversations"
          value={sort}
          onChange={(event) => setSort(event.target.value as ConversationSort)}
          className="h-9 rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <option value="recent">Most Recent</option>
          <option value="name">A-Z</option>
        </select>
        <Button variant="ghost" onClick={() => setShowDeleted(true)}>
          <Trash2Icon aria-hidden /> Recently deleted
        </Button>
      </div>
      {body}
      <MessageSearchHits hits={hits} />
      <EditConversationNameDialog
        open={editing !== null}
        initialName={editing?.name ?? ""}
        saving={update.isPending}
        onOpenChange={(open) => !open && setEditing(null)}
        onSave={saveName}
      />
      <DeleteConversationDialog
        conversationId={deleting?.id ?? null}
        deleting={remove.isPending}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={confirmDelete}
      />
      <RecentlyDeletedDialog open={showDeleted} onOpenChange={setShowDeleted} />
    </div>
  );
}
