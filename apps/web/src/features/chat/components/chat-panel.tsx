import { useQueryClient } from "@tanstack/react-query";
import type { Message } from "@sage/contracts/conversations";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "@/components/ui/use-toast";
import { useToastClearance } from "@/components/ui/use-toast-clearance";
import { useAssistantSettings } from "../api/get-assistant-settings";
import { createChatService } from "../chat-service";
import { ChatInput } from "./chat-input";
import { ChatMessage } from "./chat-message";

interface ChatPanelProps {
  conversationId: string;
  /** The conversation's messages (sorted by id), from the page's query. */
  messages: Message[] | undefined;
  /** The query key under which those messages are cached, so a finished turn can replace them. */
  messagesQueryKey: readonly unknown[];
  /** The text being typed, for panels that follow it (Relevant Files). */
  onDraftChange?: (draft: string) => void;
}

/** The centre chat: saved messages, the turn in progress (streamed, with typing state and stop), and the input. */
export function ChatPanel({ conversationId, messages, messagesQueryKey, onDraftChange }: ChatPanelProps) {
  const queryClient = useQueryClient();
  const settings = useAssistantSettings();
  const modelRef = useRef<string | undefined>(undefined);
  modelRef.current = settings.data?.modelId ?? undefined;
  const service = useMemo(
    () =>
      createChatService({
        model: () => modelRef.current,
        notify: (item) => toast(item),
        dispatchEvent: (event) => window.dispatchEvent(event),
      }),
    [],
  );
  const [draft, setDraftState] = useState("");
  const [sending, setSending] = useState(false);
  const [pendingUser, setPendingUser] = useState<string | null>(null);
  const [streamTexts, setStreamTexts] = useState<string[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  useToastClearance(composerRef);

  const setDraft = (value: string) => {
    setDraftState(value);
    onDraftChange?.(value);
  };

  useEffect(() => {
    if (!sending && messages) service.initializeChat(messages.map((message) => ({ role: message.role, content: message.content })));
  }, [messages, sending, service]);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages, pendingUser, streamTexts]);

  useEffect(() => () => abortRef.current?.abort(), []);

  async function send(text: string) {
    const content = text.trim();
    if (!content || sending) return;
    setDraft("");
    setPendingUser(content);
    setStreamTexts([]);
    setSending(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const list = await service.sendMessageAndSave(conversationId, content, { signal: controller.signal, onProgress: setStreamTexts });
      if (list.length > 0) queryClient.setQueryData(messagesQueryKey, list);
      else {
        // Nothing could be saved: give the user their words back rather than lose them.
        await queryClient.invalidateQueries({ queryKey: messagesQueryKey });
        setDraftState((current) => (current.trim() ? current : content));
      }
    } finally {
      abortRef.current = null;
      setPendingUser(null);
      setStreamTexts([]);
      setSending(false);
    }
  }

  const visibleStream = streamTexts.filter((text) => text.trim() !== "");
  const lastSaved = messages?.at(-1);
  const showPendingUser = pendingUser !== null && !(lastSaved?.role === "user" && lastSaved.content === pendingUser && visibleStream.length === 0 && !sending);

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col">
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        {messages && messages.length === 0 && pendingUser === null && (
          <p className="py-8 text-center text-sm text-muted-foreground">Ask SAGE anything: draft an email, outline a presentation, set a reminder or search your documents.</p>
        )}
        <ul className="flex flex-col gap-3" aria-live="polite">
          {(messages ?? []).map((message) => (
            <ChatMessage key={message.id} role={message.role === "user" ? "user" : "ai"} content={message.content} />
          ))}
          {showPendingUser && <ChatMessage role="user" content={pendingUser} />}
          {visibleStream.map((text, index) => (
            <ChatMessage key={`stream-${index}`} role="ai" content={text} streaming />
          ))}
        </ul>
        {sending && visibleStream.length === 0 && (
          <p className="mt-3 flex items-center gap-2 text-sm text-muted-foreground" role="status" data-testid="typing-indicator">
            <span className="inline-flex gap-1" aria-hidden>
              <span className="size-1.5 animate-bounce rounded-full bg-current" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:150ms]" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:300ms]" />
            </span>
            SAGE is typing...
          </p>
        )}
        <div ref={endRef} />
      </div>
      <div ref={composerRef}>
        <ChatInput value={draft} onChange={setDraft} onSend={(text) => void send(text)} onStop={() => abortRef.current?.abort()} sending={sending} />
      </div>
    </section>
  );
}
