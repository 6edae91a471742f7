import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";

/** The user's message in an editor: Send makes a new version beside the old one; Cancel or Escape leaves it as it was. */
export function EditMessageForm({ initial, onSend, onCancel }: { initial: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.setSelectionRange(initial.length, initial.length);
  }, [initial]);
  const changed = text.trim() !== "" && text.trim() !== initial.trim();
  return (
    <form
      className="flex w-full max-w-[85%] flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) onSend(text.trim());
      }}
    >
      <Textarea
        ref={ref}
        aria-label="Edit your message"
        value={text}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
          else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (changed) onSend(text.trim());
          }
        }}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!changed}>
          Send
        </Button>
      </div>
    </form>
  );
}
