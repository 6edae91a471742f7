import { RESEARCH_TEXTS } from "@sage/contracts/chat-turn";
import { PaperclipIcon, SendIcon, SquareIcon, Telescope } from "lucide-react";
import { useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Textarea } from "@/components/ui/textarea";
import { MessageAttachments, type ComposerAttachment } from "./message-attachments";
import { PromptMenu, promptQuery } from "./prompt-menu";
import { ResourceChips, ResourcePicker, type ComposerResource } from "./resource-picker";
import { VoiceInputButton } from "./voice-input-button";

/** The message box's id: the shell's "Skip to message box" link leads here (issue 52 item 14). */
export const COMPOSER_ID = "composer";

interface ChatInputProps {
  value: string;
  onChange: (value: string) => void;
  /** `research`: the composer's Research action is on (decision 046). */
  onSend: (text: string, options: { research?: boolean }) => void;
  onStop: () => void;
  sending: boolean;
  /** Files that go with the next message (uploaded already), and how to add or take one off. */
  attachments?: ComposerAttachment[];
  onAttach?: (files: File[]) => void;
  onRemoveAttachment?: (fileId: number) => void;
  /** A file is still uploading: Send waits for it. */
  attaching?: boolean;
  /** Voice mode's button and state, beside the microphone. */
  voiceMode?: ReactNode;
  /** Resources of the user's tool servers that go with the next message (the paperclip's "From a connected tool"). */
  resources?: ComposerResource[];
  onAttachResource?: (resource: ComposerResource) => void;
  onRemoveResource?: (resource: ComposerResource) => void;
}

/** Enter sends, Shift+Enter is a newline, blank text never sends; a stop button replaces Send while replying. */
export function ChatInput({
  value,
  onChange,
  onSend,
  onStop,
  sending,
  attachments = [],
  onAttach,
  onRemoveAttachment,
  attaching,
  voiceMode,
  resources = [],
  onAttachResource,
  onRemoveResource,
}: ChatInputProps) {
  const [pickingResource, setPickingResource] = useState(false);
  /** The "/" menu, until the user picks a prompt or presses Escape; typing "/" again opens it again. */
  const [promptsClosed, setPromptsClosed] = useState(false);
  const typedPrompt = promptQuery(value);
  const canSend = value.trim() !== "" && !sending && !attaching && !attachments.some((attachment) => attachment.pending);
  const picker = useRef<HTMLInputElement>(null);
  /** The Research action: the next message is a topic SAGE researches and reports on. */
  const [research, setResearch] = useState(false);
  const submit = () => {
    onSend(value, research ? { research: true } : {});
    setResearch(false);
  };

  /** A pasted or dropped picture or file goes with the message (a screenshot, a photo of a whiteboard). */
  function takeFiles(event: ClipboardEvent | DragEvent, files: FileList | undefined) {
    if (!onAttach || !files || files.length === 0) return;
    event.preventDefault();
    onAttach([...files]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) submit();
  }

  return (
    <form
      className="flex flex-wrap items-end gap-2 border-t p-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) submit();
      }}
      onDragOver={(event) => onAttach && event.dataTransfer.types.includes("Files") && event.preventDefault()}
      onDrop={(event) => takeFiles(event, event.dataTransfer.files)}
    >
      {attachments.length > 0 ? <MessageAttachments attachments={attachments} onRemove={onRemoveAttachment} className="w-full max-w-none" /> : null}
      {resources.length > 0 ? <ResourceChips resources={resources} onRemove={(resource) => onRemoveResource?.(resource)} /> : null}
      {typedPrompt !== undefined && !promptsClosed && onAttachResource ? (
        <PromptMenu
          query={typedPrompt}
          onClose={() => setPromptsClosed(true)}
          onFill={(text) => {
            setPromptsClosed(true);
            onChange(text);
          }}
        />
      ) : null}
      {onAttach ? (
        <>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Files to attach"
            onChange={(event) => {
              if (event.target.files?.length) onAttach([...event.target.files]);
              event.target.value = "";
            }}
          />
          {onAttachResource ? (
            <>
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button type="button" variant="ghost" size="icon" aria-label="Attach" disabled={sending}>
                    <PaperclipIcon aria-hidden />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="start">
                  <DropdownMenuItem onSelect={() => picker.current?.click()}>Pictures or files</DropdownMenuItem>
                  <DropdownMenuItem onSelect={() => setPickingResource(true)}>From a connected tool</DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
              <ResourcePicker open={pickingResource} onOpenChange={setPickingResource} onAttach={onAttachResource} />
            </>
          ) : (
            <Button type="button" variant="ghost" size="icon" aria-label="Attach pictures or files" disabled={sending} onClick={() => picker.current?.click()}>
              <PaperclipIcon aria-hidden />
            </Button>
          )}
        </>
      ) : null}
      <Button
        type="button"
        variant={research ? "secondary" : "ghost"}
        size="icon"
        aria-label={RESEARCH_TEXTS.action}
        title={RESEARCH_TEXTS.actionHint}
        aria-pressed={research}
        disabled={sending}
        onClick={() => setResearch((on) => !on)}
      >
        <Telescope aria-hidden />
      </Button>
      <Textarea
        id={COMPOSER_ID}
        onPaste={(event) => takeFiles(event, event.clipboardData?.files)}
        aria-label="Message"
        placeholder={research ? "What should SAGE research?" : "Type your message..."}
        value={value}
        onChange={(event) => {
          if (promptQuery(event.target.value) === "") setPromptsClosed(false);
          onChange(event.target.value);
        }}
        onKeyDown={onKeyDown}
        rows={2}
        className="max-h-48 min-h-12 flex-1 resize-none"
      />
      {voiceMode}
      <VoiceInputButton onTranscript={(text) => !sending && onSend(text, {})} disabled={sending} />
      {sending ? (
        <Button type="button" variant="outline" onClick={onStop} aria-label="Stop generating">
          <SquareIcon aria-hidden /> Stop
        </Button>
      ) : (
        <Button type="submit" disabled={!canSend} aria-label={research ? "Start research" : "Send message"}>
          {research ? <Telescope aria-hidden /> : <SendIcon aria-hidden />} {research ? RESEARCH_TEXTS.action : "Send"}
        </Button>
      )}
    </form>
  );
}
