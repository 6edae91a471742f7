import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { format } from "date-fns";
import type { KnowledgeSnapshot } from "@sage/contracts/backup";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { getImportPreview, restoreSnapshot, useSnapshots } from "../api/vector-database";

const REASONS: Record<KnowledgeSnapshot["reason"], string> = {
  import: "Before an import",
  reset: "Before a reset",
  restore: "Before a snapshot restore",
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const contents = (snapshot: KnowledgeSnapshot) =>
  `${plural(snapshot.files + snapshot.links, "file")}, ${plural(snapshot.notes, "note")}, ${plural(snapshot.folders, "folder")} (${megabytes(snapshot.bytes)})`;

/** The automatic snapshots of the knowledge base: each can be downloaded, or restored after a confirmation. */
export function KnowledgeSnapshotsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const snapshots = useSnapshots(open);
  const [restoring, setRestoring] = useState<KnowledgeSnapshot | null>(null);
  const preview = useQuery({ queryKey: ["vectors", "import-preview"], queryFn: getImportPreview, enabled: restoring !== null, gcTime: 0 });
  const restore = useMutation({
    mutationFn: (snapshot: KnowledgeSnapshot) => restoreSnapshot(snapshot.id),
    onSuccess: (result) => {
      setRestoring(null);
      onOpenChange(false);
      toast({ title: "Snapshot restored", description: result.message });
      void queryClient.invalidateQueries();
    },
    onError: (error) => toastError({ title: "Restore Failed", error, fallback: "The snapshot could not be restored", fields: ["message", "error"] }),
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Snapshots</DialogTitle>
          <DialogDescription>SAGE keeps a snapshot of your knowledge base before every import, reset and restore; the last three are kept.</DialogDescription>
        </DialogHeader>
        {restoring ? (
          <div className="grid gap-3" role="group" aria-label="Confirm restore">
            <p className="text-sm">
              Restore the snapshot of {format(new Date(restoring.createdAt), "MMM d, yyyy HH:mm")} ({contents(restoring)})?{" "}
              {preview.data ? `${preview.data.message} with it.` : "Checking what it replaces..."} A snapshot of what is there now is kept first.
            </p>
            <DialogFooter>
              <Button variant="outline" onClick={() => setRestoring(null)}>
                Cancel
              </Button>
              <Button variant="destructive" onClick={() => restore.mutate(restoring)} disabled={restore.isPending || !preview.data}>
                {restore.isPending ? "Restoring..." : "Restore"}
              </Button>
            </DialogFooter>
          </div>
        ) : snapshots.isPending ? (
          <p className="text-sm text-muted-foreground">Loading snapshots...</p>
        ) : (snapshots.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No snapshots yet.</p>
        ) : (
          <ul aria-label="Snapshots" className="grid gap-2">
            {snapshots.data!.map((snapshot) => (
              <li key={snapshot.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm">
                <div>
                  <p className="font-medium">{format(new Date(snapshot.createdAt), "MMM d, yyyy HH:mm")}</p>
                  <p className="text-muted-foreground">
                    {REASONS[snapshot.reason]}: {contents(snapshot)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button asChild variant="ghost" size="sm">
                    <a href={`/api/knowledge/snapshots/${snapshot.id}/download`} download>
                      Download
                    </a>
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setRestoring(snapshot)}
                    aria-label={`Restore the snapshot of ${format(new Date(snapshot.createdAt), "MMM d, yyyy HH:mm")}`}
                  >
                    Restore
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
