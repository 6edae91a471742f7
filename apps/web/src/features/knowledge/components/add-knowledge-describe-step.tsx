import type { Dispatch } from "react";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import type { AddKnowledgeAction, AddKnowledgeState } from "../add-knowledge-reducer";
import { NOTE_PREVIEW_LENGTH, preview } from "../knowledge-view";
import { pendingEntryLabel } from "../pending-entry";

/**
 * The second step: a description for each item in turn, pre-filled with a suggestion from the item's own text;
 * Next waits for one, and "Use this description for all remaining files" finishes a batch in one step.
 */
export function AddKnowledgeDescribeStep({ state, dispatch }: { state: AddKnowledgeState; dispatch: Dispatch<AddKnowledgeAction> }) {
  const { items, describeIndex, destination } = state;
  const current = items[describeIndex];
  if (!current) return null;
  const { entry, description } = current;
  const missing = !description.trim();

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add a description</DialogTitle>
        <DialogDescription>
          {items.length > 1 ? `Item ${describeIndex + 1} of ${items.length}: ` : ""}
          {entry.kind === "note" ? "Note" : pendingEntryLabel(entry)}
        </DialogDescription>
      </DialogHeader>
      {entry.kind === "note" ? (
        <p className="max-h-40 overflow-y-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap" aria-label="Note preview">
          {preview(entry.text, NOTE_PREVIEW_LENGTH)}
        </p>
      ) : null}
      <div className="grid gap-2">
        <Label htmlFor="add-knowledge-description">Description</Label>
        <Textarea
          id="add-knowledge-description"
          required
          rows={3}
          placeholder="What is this about?"
          value={description}
          onChange={(event) => dispatch({ type: "description-typed", text: event.target.value })}
        />
        {missing ? <p className="text-xs text-muted-foreground">A description is required.</p> : null}
      </div>
      <p className="text-sm text-muted-foreground">Location: {["Knowledge Base", ...destination.trail.map((crumb) => crumb.name)].join(" / ")}</p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => dispatch({ type: "went-back" })}>
          Back
        </Button>
        {describeIndex < items.length - 1 ? (
          <Button type="button" variant="outline" disabled={missing} onClick={() => dispatch({ type: "description-used-for-rest" })}>
            Use this description for all remaining files
          </Button>
        ) : null}
        <Button type="button" disabled={missing} onClick={() => dispatch({ type: "description-confirmed" })}>
          Next
        </Button>
      </DialogFooter>
    </>
  );
}
