import type { ConversationListItem } from "@sage/contracts/conversations";
import { format } from "date-fns";
import { MessageSquareIcon, MoreVerticalIcon, PencilIcon, PinIcon, PinOffIcon, Trash2Icon } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/cn";
import { displayName, type ConversationView } from "../conversation-list-view";

interface ConversationItemProps {
  conversation: ConversationListItem;
  view: ConversationView;
  onEditName: () => void;
  onDelete: () => void;
  onTogglePin: () => void;
}

/**
 * One conversation as a 200px card (grid) or a row (list): name or Untitled (a dot before it while a scheduled run's
 * message is unread), its last message's first line, 'MMM d, yyyy', and its menu.
 */
export function ConversationItem({ conversation, view, onEditName, onDelete, onTogglePin }: ConversationItemProps) {
  const name = displayName(conversation);
  return (
    <li
      data-testid="conversation-item"
      className={cn(
        "group relative rounded-xl border bg-card text-card-foreground shadow-xs transition-colors hover:bg-accent/40",
        view === "grid" ? "h-[200px]" : "h-16",
      )}
    >
      <Link
        href={`/conversations/${conversation.id}`}
        // The menu button sits in the top-right corner of a card, and at the right end of a row: keep text clear of it.
        className={cn(
          "flex h-full w-full gap-3 rounded-xl p-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
          view === "grid" ? "flex-col" : "items-center pr-14",
        )}
      >
        {conversation.pinned ? (
          <PinIcon className="size-5 shrink-0 text-primary" aria-label="Pinned" role="img" data-testid="conversation-pinned" />
        ) : (
          <MessageSquareIcon className="size-5 shrink-0 text-primary" aria-hidden />
        )}
        <span
          className={cn("min-w-0 flex-1 font-medium", view === "grid" ? "line-clamp-3 pr-8 text-lg" : "truncate")}
          data-testid="conversation-name"
          title={name}
        >
          {conversation.unread && (
            <span
              data-testid="conversation-unread"
              className="mr-1.5 inline-block size-2 rounded-full bg-primary align-middle"
              title="New since you last opened it"
              aria-hidden
            />
          )}
          {conversation.unread && <span className="sr-only">Unread: </span>}
          {name}
        </span>
        {conversation.lastMessage && (
          <span
            className={cn("min-w-0 text-sm text-muted-foreground", view === "grid" ? "line-clamp-2" : "hidden flex-1 truncate sm:block")}
            data-testid="conversation-last-message"
            title={conversation.lastMessage}
          >
            {conversation.lastMessage}
          </span>
        )}
        <span className="shrink-0 text-sm text-muted-foreground" data-testid="conversation-date">
          {format(new Date(conversation.createdAt), "MMM d, yyyy")}
        </span>
      </Link>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className={cn("absolute right-2", view === "grid" ? "top-2" : "top-1/2 -translate-y-1/2")}
            aria-label={`Actions for ${name}`}
          >
            <MoreVerticalIcon aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={onTogglePin}>
            {conversation.pinned ? <PinOffIcon aria-hidden /> : <PinIcon aria-hidden />} {conversation.pinned ? "Unpin" : "Pin to top"}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onEditName}>
            <PencilIcon aria-hidden /> Edit Name
          </DropdownMenuItem>
          <DropdownMenuItem variant="destructive" onSelect={onDelete}>
            <Trash2Icon aria-hidden /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}
