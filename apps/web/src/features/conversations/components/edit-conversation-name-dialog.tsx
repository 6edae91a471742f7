import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";

interface EditConversationNameDialogProps {
  open: boolean;
  initialName: string;
  saving: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (name: string) => void;
}

/** Renames a conversation. No validation: whatever is in the input is saved, even an empty name. */
export function EditConversationNameDialog({ open, initialName, saving, onOpenChange, onSave }: EditConversationNameDialogProps) {
  const [name, setName] = useState(initialName);
  useEffect(() => {
    if (open) setName(initialName);
  }, [open, initialName]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Conversation Name</DialogTitle>
        </DialogHeader>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSave(name);
          }}
          className="flex flex-col gap-4"
        >
          <Input
            aria-label="Conversation name"
            placeholder="Enter conversation name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoFocus
          />
          <DialogFooter>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
