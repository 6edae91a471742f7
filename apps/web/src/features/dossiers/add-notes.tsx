import { useMutation } from "@tanstack/react-query";
import { DOSSIER_TEXTS, EVENT_NOTES_MAX, eventNoteSchema } from "@sage/contracts/dossiers";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { apiRequest } from "@/lib/api-client";

/**
 * "Add notes" on a meeting that has ended (issue 53): the typed (or dictated) notes are filed as a note of the event
 * (POST /api/dossiers/notes); SAGE searches them, reads them for commitments and quotes them in the next dossier.
 * `dictate` is the app's microphone button, fed a function that appends what was heard.
 */
export function AddNotesButton({ eventId, title, dictate }: { eventId: number; title: string; dictate?: (append: (text: string) => void) => ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => apiRequest("/api/dossiers/notes", { method: "POST", body: { eventId, text }, schema: eventNoteSchema }),
    onSuccess: (note) => {
      setSaved(note.name);
      setText("");
      setOpen(false);
    },
  });
  const blank = text.trim().length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (blank) return;
    save.mutate();
  }

  return (
    <>
      <button
        type="button"
        className="shrink-0 text-xs text-primary hover:underline"
        aria-label={`${DOSSIER_TEXTS.addNotes} for ${title}`}
        onClick={() => {
          save.reset();
          setOpen(true);
        }}
      >
        {saved ? DOSSIER_TEXTS.notesSaved : DOSSIER_TEXTS.addNotes}
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{`Notes of ${title}`}</DialogTitle>
            <DialogDescription>What was decided and who will do what. SAGE keeps them with the meeting and reads them for commitments.</DialogDescription>
          </DialogHeader>
          <form noValidate onSubmit={submit} className="grid gap-3">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-notes`}>Notes</Label>
              <div className="flex items-start gap-2">
                <Textarea
                  id={`${id}-notes`}
                  value={text}
                  maxLength={EVENT_NOTES_MAX}
                  rows={8}
                  onChange={(event) => setText(event.target.value)}
                  className="flex-1"
                />
                {dictate?.((heard) => setText((before) => (before.trim() ? `${before.trimEnd()} ${heard}` : heard)))}
              </div>
            </div>
            {save.isError && (
              <p role="alert" className="text-sm text-destructive">
                {save.error instanceof Error ? save.error.message : DOSSIER_TEXTS.notesInvalid}
              </p>
            )}
            <DialogFooter>
              <Button type="submit" disabled={blank || save.isPending}>
                {save.isPending ? "Saving…" : "Save notes"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
