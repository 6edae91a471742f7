import { DELETED_CONVERSATION_DAYS, type DeletedConversation } from "@sage/contracts/conversations";
import { format } from "date-fns";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toastError } from "@/components/ui/toast-error";
import { useDeletedConversations, useRestoreConversation } from "../api/deleted-conversations";
import { displayName } from "../conversation-list-view";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function DeletedRow({ conversation }: { conversation: DeletedConversation }) {
  const restore = useRestoreConversation();
  const name = displayName(conversation);
  const holds = [plural(conversation.reminderCount, "reminder", "reminders"), plural(conversation.fileCount, "file", "files")].join(", ");
  return (
    <li className="flex items-center gap-3 rounded-lg border p-3" data-testid="deleted-conversation">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium" title={name}>
          {name}
        </p>
        <p className="text-sm text-muted-foreground">
          Deleted {format(new Date(conversation.deletedAt), "MMM d, yyyy")} · {holds} · gone for good {format(new Date(conversation.purgeAt), "MMM d, yyyy")}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Restore ${name}`}
        disabled={restore.isPending}
        onClick={() => restore.mutate(conversation.id, { onError: () => toastError({ description: "Failed to restore conversation" }) })}
      >
        {restore.isPending ? "Restoring..." : "Restore"}
      </Button>
    </li>
  );
}

/** Conversations deleted in the last 30 days, each with Restore (decision 035). */
export function RecentlyDeletedDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const deleted = useDeletedConversations(open);
  let body;
  if (deleted.isPending) body = <p className="py-6 text-center text-muted-foreground">Loading...</p>;
  else if (deleted.isError) body = <p className="py-6 text-center text-destructive">Failed to load deleted conversations</p>;
  else if (deleted.data.length === 0) body = <p className="py-6 text-center text-muted-foreground">No recently deleted conversations</p>;
  else
    body = (
      <ul aria-label="Deleted conversations" className="flex max-h-[60vh] flex-col gap-2 overflow-y-auto">
        {deleted.data.map((conversation) => (
          <DeletedRow key={conversation.id} conversation={conversation} />
        ))}
      </ul>
    );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Recently deleted</DialogTitle>
          <DialogDescription>
            Deleted conversations keep their messages, files and reminders for {DELETED_CONVERSATION_DAYS} days. Restore one to bring it all back.
          </DialogDescription>
        </DialogHeader>
        {body}
      </DialogContent>
    </Dialog>
  );
}
