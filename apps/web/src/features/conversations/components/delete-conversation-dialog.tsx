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

/**
 * The spec's question, and one true sentence after it (issue 52 item 12, decision 093): the conversation can be
 * restored for 30 days, so "This action cannot be undone." is not said; then what goes with it (decision 035).
 */
export function DeleteConversationDialog({ conversationId, deleting, onOpenChange, onConfirm }: DeleteConversationDialogProps) {
  const contents = useConversationContents(conversationId);
  const withIt = contents.data ? deletedWithIt(contents.data) : null;
  return (
    <Dialog open={conversationId !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete Conversation</DialogTitle>
          <DialogDescription>Are you sure you want to delete this conversation? {RESTORABLE_FOR}</DialogDescription>
        </DialogHeader>
        {withIt && (
          <p className="text-sm font-medium" data-testid="delete-consequences">
            {withIt}
          </p>
        )}
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
