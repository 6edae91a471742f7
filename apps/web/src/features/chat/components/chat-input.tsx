import { SendIcon, SquareIcon } from "lucide-react";
import type { KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { VoiceInputButton } from "./voice-input-button";

interface ChatInputProps {
  value: string;
  onChange: (value: string) => void;
  onSend: (text: string) => void;
  onStop: () => void;
  sending: boolean;
}

/** Enter sends, Shift+Enter is a newline, blank text never sends; a stop button replaces Send while replying. */
export function ChatInput({ value, onChange, onSend, onStop, sending }: ChatInputProps) {
  const canSend = value.trim() !== "" && !sending;

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend(value);
  }

  return (
    <form
      className="flex items-end gap-2 border-t p-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend(value);
      }}
    >
      <Textarea
        aria-label="Message"
        placeholder="Type your message..."
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        className="max-h-48 min-h-12 flex-1 resize-none"
      />
      <VoiceInputButton onTranscript={(text) => !sending && onSend(text)} disabled={sending} />
      {sending ? (
        <Button type="button" variant="outline" onClick={onStop} aria-label="Stop generating">
          <SquareIcon aria-hidden /> Stop
        </Button>
      ) : (
        <Button type="submit" disabled={!canSend} aria-label="Send message">
          <SendIcon aria-hidden /> Send
        </Button>
      )}
    </form>
  );
}
