import { useEffect, useState } from "react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { useCreateFolder, useDeleteItem, useUpdateItem } from "../api/manage-items";
import { FolderBrowser } from "./folder-browser";

const failure = (title: string, error: unknown, fallback: string) => toastError({ title, error, fallback, orElse: "statusText" });

interface ItemDialogProps {
  item: KnowledgeItem | null;
  onClose: () => void;
}

export function RenameItemDialog({ item, onClose }: ItemDialogProps) {
  const [name, setName] = useState("");
  const update = useUpdateItem();
  useEffect(() => setName(item?.name ?? ""), [item]);
  const save = async () => {
    // A rename with a blank name cancels rather than failing.
    if (!item || !name.trim() || name.trim() === item.name) return onClose();
    try {
      await update.mutateAsync({ id: item.id, changes: { name: name.trim() } });
      onClose();
    } catch (error) {
      failure("Error", error, "Failed to rename item");
    }
  };
  return (
    <Dialog open={!!item} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Rename</DialogTitle>
          <DialogDescription>Enter a new name for {item?.name}.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Label htmlFor="rename-item-name" className="sr-only">
            Name
          </Label>
          <Input id="rename-item-name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function MoveItemDialog({ item, onClose }: ItemDialogProps) {
  const [folderId, setFolderId] = useState(0);
  const update = useUpdateItem();
  useEffect(() => setFolderId(0), [item]);
  const move = async () => {
    if (!item) return;
    try {
      await update.mutateAsync({ id: item.id, changes: { parentId: folderId } });
      toast({ title: "Item moved", description: `${item.name} was moved.` });
      onClose();
    } catch (error) {
      failure("Error", error, "Failed to move item");
    }
  };
  return (
    <Dialog open={!!item} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Move {item?.name}</DialogTitle>
          <DialogDescription>Open the folder to move it into, then choose Move here.</DialogDescription>
        </DialogHeader>
        <FolderBrowser folderId={folderId} onNavigate={(id) => setFolderId(id)} excludeId={item?.type === "folder" ? item.id : undefined} />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" disabled={update.isPending} onClick={() => void move()}>
            Move here
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function DeleteItemDialog({ item, onClose, title, confirmLabel = "Delete" }: ItemDialogProps & { title?: string; confirmLabel?: string }) {
  const remove = useDeleteItem();
  const confirm = async () => {
    if (!item) return;
    try {
      await remove.mutateAsync(item.id);
      onClose();
    } catch (error) {
      failure("Error", error, "Failed to delete file");
    }
  };
  const heading = title ?? (item?.type === "folder" ? "Delete Folder" : "Delete File");
  return (
    <Dialog open={!!item} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{heading}</DialogTitle>
          <DialogDescription>
            {item?.type === "folder"
              ? `Are you sure you want to delete the folder "${item.name}" and everything in it? This action cannot be undone.`
              : `Are you sure you want to delete "${item?.name ?? ""}"? This action cannot be undone.`}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={remove.isPending} onClick={() => void confirm()}>
            {remove.isPending ? "Deleting..." : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function CreateFolderDialog({ open, onClose, parent }: { open: boolean; onClose: () => void; parent: { id: number; path: string } }) {
  const [name, setName] = useState("");
  const create = useCreateFolder();
  useEffect(() => setName(""), [open]);
  const save = async () => {
    if (!name.trim()) return;
    try {
      await create.mutateAsync({ name: name.trim(), parentId: parent.id, parentPath: parent.path });
      onClose(); // no toast: the new folder is on screen
    } catch (error) {
      failure("Error", error, "Failed to create folder");
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Create Folder</DialogTitle>
          <DialogDescription>The folder is created in the current location.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Label htmlFor="create-folder-name" className="sr-only">
            Folder name
          </Label>
          <Input id="create-folder-name" placeholder="Folder name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim() || create.isPending}>
              {create.isPending ? "Creating..." : "Create"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
