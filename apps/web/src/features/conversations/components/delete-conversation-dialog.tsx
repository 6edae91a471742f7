import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useConversationContents } from "../api/get-conversation-contents";
import { deletedWithIt, RESTORABLE_FOR } from "../delete-consequences";

interface DeleteConversationDialogProps {
  /** The conversation to delete; the dialog is open while there is one. */
  conversationId: number | null;
  deleting: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}

/** The spec's confirmation, plus what goes with the conversation and the way back (decision 035). */
export function DeleteConversationDialog({ conversationId, deleting, onOpenChange, onConfirm }: DeleteConversationDialogProps) {
  const contents = useConversationContents(conversationId);
  const withIt = contents.data ? deletedWithIt(contents.data) : null;
  return (
    <Dialog open={conversationId !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete Conversation</DialogTitle>
          <DialogDescription>Are you sure you want to delete this conversation? This action cannot be undone.</DialogDescription>
        </DialogHeader>
        <p className="text-sm text-muted-foreground" data-testid="delete-consequences">
          {withIt && <span className="font-medium text-foreground">{withIt} </span>}
          {RESTORABLE_FOR}
        </p>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={deleting}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={deleting}>
            {deleting ? "Deleting..." : "Delete"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
