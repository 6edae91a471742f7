import { useEffect, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Database, Download, History, RefreshCw, Upload } from "lucide-react";
import { IMPORT_INVALID_FORMAT_MESSAGE, IMPORT_INVALID_FORMAT_TITLE, IMPORT_MAX_ARCHIVE_BYTES, IMPORT_TOO_LARGE_TITLE } from "@sage/contracts/retrieval";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { exportVectorDb, getImportPreview, importVectorDb, isRunning, resetVectorDb, revectorize, useVectorStatus } from "../api/vector-database";
import { KnowledgeSnapshotsDialog } from "./knowledge-snapshots-dialog";
import { VectorStatusLine } from "./vector-status-line";

/** A failed action's toast: the server's `message` (else its `error`), else the fallback. */
const failureToast = (title: string, fallback: string) => (error: unknown) => toastError({ title, error, fallback, fields: ["message", "error"] });

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)}MB`;

/**
 * Settings > Knowledge Base: Reset Vector Database, Export Vector DB, Re-vectorize DB, Import Vector DB (after a
 * confirmation that says what it replaces), and Snapshots, the automatic ones taken before each import and reset.
 */
export function VectorDatabaseActions({
  knowledgeState,
}: {
  /** Changes when the knowledge's items or their passages change: the status is read again. */ knowledgeState?: string;
}) {
  const queryClient = useQueryClient();
  const status = useVectorStatus();
  const seenState = useRef(knowledgeState);
  useEffect(() => {
    if (seenState.current === knowledgeState) return;
    seenState.current = knowledgeState;
    void queryClient.invalidateQueries({ queryKey: ["vectors", "status"] });
  }, [knowledgeState, queryClient]);
  const [confirmReset, setConfirmReset] = useState(false);
  const [pendingImport, setPendingImport] = useState<{ file: File; replaces: string } | null>(null);
  const [showSnapshots, setShowSnapshots] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["vectors"] });

  const reset = useMutation({
    mutationFn: resetVectorDb,
    onSuccess: (result) => {
      setConfirmReset(false);
      toast({ title: "Vector database reset", description: result.message });
    },
    onError: failureToast("Reset Failed", "Failed to reset the vector database"),
    onSettled: refresh,
  });
  const exporting = useMutation({
    mutationFn: exportVectorDb,
    onSuccess: (filename) => toast({ title: "Export complete", description: `Saved ${filename}` }),
    onError: failureToast("Export Failed", "Failed to export the vector database"),
  });
  const reembed = useMutation({
    mutationFn: revectorize,
    onSuccess: (result) => toast({ title: "Re-vectorize", description: result.message }),
    onError: failureToast("Re-vectorize Failed", "Failed to re-vectorize"),
    onSettled: refresh,
  });
  const importing = useMutation({
    mutationFn: importVectorDb,
    onSuccess: (result) => {
      setPendingImport(null);
      toast({ title: "Import complete", description: result.message });
      void queryClient.invalidateQueries();
    },
    onError: (error) => {
      setPendingImport(null);
      failureToast("Import Failed", "The backup could not be imported")(error);
    },
  });
  const previewing = useMutation({
    mutationFn: async (file: File) => ({ file, replaces: (await getImportPreview()).message }),
    onSuccess: setPendingImport,
    onError: failureToast("Import Failed", "Could not read what the import would replace"),
  });

  function onFileChosen(file: File | undefined) {
    if (fileInput.current) fileInput.current.value = "";
    if (!file) return;
    if (!file.name.toLowerCase().endsWith(".zip")) {
      toastError({ title: IMPORT_INVALID_FORMAT_TITLE, description: IMPORT_INVALID_FORMAT_MESSAGE });
      return;
    }
    // The 100MB maximum leaves out the backup's original files (the server checks it); this is the whole zip's.
    if (file.size > IMPORT_MAX_ARCHIVE_BYTES) {
      toastError({
        title: IMPORT_TOO_LARGE_TITLE,
        description: `The file is ${megabytes(file.size)}; the maximum is 100MB without its original files, 2 GB in all.`,
      });
      return;
    }
    previewing.mutate(file);
  }

  const job = status.data?.job;
  const running = job && isRunning(job);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <Button variant="destructive-outline" size="sm" onClick={() => setConfirmReset(true)}>
          <Database aria-hidden /> Reset Vector Database
        </Button>
        <Button variant="outline" size="sm" onClick={() => exporting.mutate()} disabled={exporting.isPending}>
          <Download aria-hidden /> Export Vector DB
        </Button>
        <Button variant="outline" size="sm" onClick={() => reembed.mutate()} disabled={reembed.isPending || Boolean(running)}>
          <RefreshCw aria-hidden /> Re-vectorize DB
        </Button>
        <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={importing.isPending || previewing.isPending}>
          <Upload aria-hidden /> Import Vector DB
        </Button>
        <Button variant="outline" size="sm" onClick={() => setShowSnapshots(true)}>
          <History aria-hidden /> Snapshots
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".zip,application/zip"
          className="hidden"
          aria-label="Vector database backup file"
          onChange={(event) => onFileChosen(event.target.files?.[0])}
        />
      </div>
      {status.data ? <VectorStatusLine status={status.data} /> : null}
      <Dialog open={confirmReset} onOpenChange={setConfirmReset}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Reset Vector Database</DialogTitle>
            <DialogDescription>
              This removes every vector of your knowledge base. Your files stay and can be re-vectorized. A snapshot is kept first. Continue?
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmReset(false)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => reset.mutate()} disabled={reset.isPending}>
              {reset.isPending ? "Resetting..." : "Reset"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={pendingImport !== null} onOpenChange={(open) => !open && !importing.isPending && setPendingImport(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Import Vector DB</DialogTitle>
            <DialogDescription>
              {pendingImport?.replaces} with the contents of {pendingImport?.file.name}, conversation files included. A snapshot of your knowledge base is kept
              first; you can restore it from Snapshots. Continue?
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setPendingImport(null)} disabled={importing.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => pendingImport && importing.mutate(pendingImport.file)} disabled={importing.isPending}>
              {importing.isPending ? "Importing..." : "Replace and import"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <KnowledgeSnapshotsDialog open={showSnapshots} onOpenChange={setShowSnapshots} />
    </div>
  );
}
