import { useEffect, useReducer, useRef, useState } from "react";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { addKnowledgeReducer, hasUnsavedInput, initialAddKnowledgeState, type Destination } from "../add-knowledge-reducer";
import { suggestDescription } from "../description-suggestion";
import { useSubmitKnowledge } from "../hooks/use-submit-knowledge";
import type { PendingEntry } from "../pending-entry";
import { AddKnowledgeDescribeStep } from "./add-knowledge-describe-step";
import { AddKnowledgeDestinationStep } from "./add-knowledge-destination-step";
import { AddKnowledgePickStep } from "./add-knowledge-pick-step";
import { DiscardChangesDialog } from "./discard-changes-dialog";

interface AddKnowledgeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 0 for the system knowledge base. */
  conversationId: number;
  /** The folder the destination picker starts in. */
  initialFolder?: Destination;
}

const TOP: Destination = { id: 0, trail: [] };

/** Adding knowledge: pick (files, a URL or a note) -> a description for each -> destination -> submit. */
export function AddKnowledgeDialog({ open, onOpenChange, conversationId, initialFolder = TOP }: AddKnowledgeDialogProps) {
  const [state, dispatch] = useReducer(addKnowledgeReducer, initialFolder, initialAddKnowledgeState);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const { submit, progress } = useSubmitKnowledge();
  // Each entry gets one suggestion, pre-filled while its description is empty (a description the user cleared stays so).
  const suggested = useRef(new WeakSet<PendingEntry>());
  useEffect(() => {
    for (const { entry, description } of state.items) {
      if (description !== "" || suggested.current.has(entry)) continue;
      suggested.current.add(entry);
      void suggestDescription(entry).then((text) => dispatch({ type: "description-suggested", entry, text }));
    }
  }, [state.items]);

  const close = () => {
    dispatch({ type: "reset", destination: initialFolder });
    onOpenChange(false);
  };
  const requestClose = () => {
    if (progress !== null) return;
    if (hasUnsavedInput(state)) setConfirmDiscard(true);
    else close();
  };

  const onSubmit = async () => {
    const { destination } = state;
    const saved = await submit(state.items, { conversationId, parentId: destination.id, parentPath: destination.trail.map((crumb) => crumb.name).join("/") });
    if (saved) close();
  };

  return (
    <>
      <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
        <DialogContent className="sm:max-w-lg">
          {state.step === "pick" ? <AddKnowledgePickStep state={state} dispatch={dispatch} onCancel={requestClose} /> : null}
          {state.step === "describe" ? <AddKnowledgeDescribeStep state={state} dispatch={dispatch} /> : null}
          {state.step === "destination" ? (
            <AddKnowledgeDestinationStep destination={state.destination} progress={progress} dispatch={dispatch} onSubmit={() => void onSubmit()} />
          ) : null}
        </DialogContent>
      </Dialog>
      <DiscardChangesDialog
        open={confirmDiscard}
        onKeepEditing={() => setConfirmDiscard(false)}
        onDiscard={() => {
          setConfirmDiscard(false);
          close();
        }}
      />
    </>
  );
}
