import type { Dispatch } from "react";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { AddKnowledgeAction, Destination } from "../add-knowledge-reducer";
import { FolderBrowser } from "./folder-browser";

interface DestinationStepProps {
  destination: Destination;
  /** The upload's progress from 0 to 1 while the items are sent, else null. */
  progress: number | null;
  dispatch: Dispatch<AddKnowledgeAction>;
  onSubmit: () => void;
}

/** The last step: the folder the items go into, and Add here (with the upload's progress). */
export function AddKnowledgeDestinationStep({ destination, progress, dispatch, onSubmit }: DestinationStepProps) {
  const submitting = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <>
      <DialogHeader>
        <DialogTitle>Choose a destination</DialogTitle>
        <DialogDescription>Open a folder to add the items there, or add them here.</DialogDescription>
      </DialogHeader>
      <FolderBrowser folderId={destination.id} onNavigate={(id, trail) => dispatch({ type: "destination-opened", destination: { id, trail } })} />
      {submitting ? (
        <div className="grid gap-1" aria-live="polite">
          <div className="h-2 overflow-hidden rounded bg-muted">
            <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-xs text-muted-foreground">Uploading... {percent}%</p>
        </div>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={submitting} onClick={() => dispatch({ type: "went-back" })}>
          Back
        </Button>
        <Button type="button" disabled={submitting} onClick={onSubmit}>
          {submitting ? "Uploading..." : "Add here"}
        </Button>
      </DialogFooter>
    </>
  );
}
