import { modelFailureOf } from "@sage/contracts/chat-turn";
import type { Citation, Message } from "@sage/contracts/conversations";
import type { ApprovalDecision } from "@sage/contracts/external-tools";
import { useQueryClient } from "@tanstack/react-query";
import { Fragment, useEffect, useRef, useState } from "react";
import { toastError } from "@/components/ui/toast-error";
import { useToastClearance } from "@/components/ui/use-toast-clearance";
import { activateBranch } from "../api/activate-branch";
import { attachFile } from "../api/attach-file";
import { answerApproval } from "../api/answer-approval";
import { useAssistantSettings } from "../api/get-assistant-settings";
import { forgetAnsweredApproval, pendingApprovalsQueryKey, useWaitingApprovals } from "../api/get-pending-approvals";
import { useChatTurn } from "../hooks/use-chat-turn";
import { useVoiceMode } from "../hooks/use-voice-mode";
import { ApprovalCard } from "./approval-card";
import { ChatInput } from "./chat-input";
import { ElicitationCard } from "./elicitation-card";
import { ChatMessage } from "./chat-message";
import { DocumentCard, createdDocument } from "./document-card";
import type { ComposerAttachment } from "./message-attachments";
import { NO_MODEL_NOTICE, NoModelBanner } from "./no-model-banner";
import { RememberedLine } from "./remembered-line";
import { ResearchProgress, researchStepsOf } from "./research-progress";
import type { ComposerResource } from "./resource-picker";
import { ToolProgressLine, ToolRunLine } from "./tool-run-line";
import { VoiceModeButton } from "./voice-mode-button";
import { pollEvery } from "@/lib/poll-every";

interface ChatPanelProps {
  conversationId: string;
  /** The conversation's messages (sorted by id), from the page's query. */
  messages: Message[] | undefined;
  /** The query key under which those messages are cached, so a turn can add what it saved. */
  messagesQueryKey: readonly unknown[];
  /** The text being typed, for panels that follow it (Relevant Files). */
  onDraftChange?: (draft: string) => void;
  /** Opens a cited passage (its file's preview); the page supplies it from the knowledge feature. */
  onOpenCitation?: (citation: Citation) => void;
  /** A message to show and highlight instead of the end (opened from a message search hit). */
  focusMessageId?: number;
  /** The model chosen for this conversation; the default model when undefined. */
  model?: string;
}

/** The centre chat: saved messages, the turn in progress (streamed, with typing state and stop), and the input. */
export function ChatPanel({ conversationId, messages, messagesQueryKey, onDraftChange, onOpenCitation, focusMessageId, model }: ChatPanelProps) {
  const settings = useAssistantSettings();
  const modelRef = useRef<string | undefined>(undefined);
  modelRef.current = model ?? settings.data?.modelId ?? undefined;
  const turn = useChatTurn({ conversationId, messagesQueryKey, model: () => modelRef.current });
  const [draft, setDraftState] = useState("");
  const endRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);
  useToastClearance(composerRef);

  const setDraft = (value: string) => {
    setDraftState(value);
    onDraftChange?.(value);
  };

  // The found message stays in view and marked until the user sends something; then the end is followed again.
  const [focused, setFocused] = useState(focusMessageId);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => setFocused(focusMessageId), [focusMessageId]);
  useEffect(() => {
    if (turn.pendingUser !== null) setFocused(undefined);
  }, [turn.pendingUser]);
  useEffect(() => {
    const target = focused === undefined ? null : listRef.current?.querySelector(`[data-message-id="${focused}"]`);
    if (target) target.scrollIntoView?.({ block: "center" });
    else if (focused === undefined || messages) endRef.current?.scrollIntoView?.({ block: "end" });
  }, [focused, messages, turn.pendingUser, turn.live, turn.notice, turn.approvals, turn.elicitations]);

  // A conversation with nothing in it yet (just made with New Conversation) is for typing: the message box has focus
  // at once, instead of 16 Tab presses away (issue 52 item 14).
  const empty = messages !== undefined && messages.length === 0;
  useEffect(() => {
    if (empty) composerRef.current?.querySelector("textarea")?.focus();
  }, [empty, conversationId]);

  const queryClient = useQueryClient();

  // Cards a scheduled run left here while nobody watched; its answer is saved when the run goes on, so the
  // messages are read again for a while after the user answers.
  const waiting = useWaitingApprovals(Number(conversationId));
  const shownLive = new Set(turn.approvals.map((approval) => approval.approvalId));
  const runCards = (waiting.data ?? []).filter((approval) => !shownLive.has(approval.approvalId));
  const [followUntil, setFollowUntil] = useState(0);
  useEffect(() => {
    if (followUntil <= Date.now()) return;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: messagesQueryKey });
      if (followUntil <= Date.now()) clearInterval(timer);
    }, pollEvery(2000));
    return () => clearInterval(timer);
  }, [followUntil, messagesQueryKey, queryClient]);
  async function answerRunCard(approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]) {
    try {
      await answerApproval(approvalId, { approved, ...(confirm ? { confirm } : {}) });
      await forgetAnsweredApproval(queryClient, approvalId);
      setFollowUntil(Date.now() + 60_000);
    } catch (error) {
      toastError({ error, fallback: "The answer could not be sent" });
    }
    void queryClient.invalidateQueries({ queryKey: pendingApprovalsQueryKey });
  }

  const [attachments, setAttachments] = useState<ComposerAttachment[]>([]);
  const [resources, setResources] = useState<ComposerResource[]>([]);
  const sameResource = (a: ComposerResource, b: ComposerResource) => a.serverId === b.serverId && a.uri === b.uri;
  const [attaching, setAttaching] = useState(0);
  const placeholders = useRef(0);
  async function attach(files: File[]) {
    setAttaching((count) => count + files.length);
    for (const file of files) {
      // Shown at once: a picture is read (text recognition) before the upload answers, which can take seconds.
      const placeholder = { fileId: -++placeholders.current, name: file.name, mimeType: file.type || null, pending: true };
      setAttachments((list) => [...list, placeholder]);
      try {
        const attached = await attachFile(conversationId, file);
        setAttachments((list) => [...list.filter((each) => each.fileId !== attached.fileId && each.fileId !== placeholder.fileId), attached]);
        // The conversation's files list shows the new file.
        void queryClient.invalidateQueries({ queryKey: ["knowledge"] });
      } catch (error) {
        setAttachments((list) => list.filter((each) => each.fileId !== placeholder.fileId));
        toastError({ title: `Could not attach ${file.name}`, error, fallback: "The file could not be uploaded", fields: ["error", "message"] });
      } finally {
        setAttaching((count) => count - 1);
      }
    }
  }

  async function send(text: string, options: { research?: boolean } = {}) {
    const content = text.trim();
    if (!content || turn.sending || attaching > 0) return;
    setDraft("");
    const sent = attachments;
    const sentResources = resources;
    setAttachments([]);
    setResources([]);
    const { nothingSaved } = await turn.send(
      content,
      sent.map((attachment) => attachment.fileId),
      { ...options, resources: sentResources.map(({ serverId, uri }) => ({ serverId, uri })) },
    );
    if (nothingSaved) setAttachments((current) => (current.length ? current : sent));
    if (nothingSaved) setResources((current) => (current.length ? current : sentResources));
    // Nothing was saved (no model, or the turn was refused): give the user their words back rather than lose them.
    if (nothingSaved) setDraftState((current) => (current.trim() ? current : content));
  }

  /** Sends a user message again, edited: a new version beside the old one, with the same files. */
  function sendEdited(message: Message, text: string) {
    if (turn.sending) return;
    const files = (message.attachments ?? []).map((attachment) => attachment.fileId);
    void turn.send(text, files, { branch: { kind: "edit", messageId: message.id } });
  }
  const regenerate = (message: Message) => {
    if (!turn.sending) void turn.send("", [], { branch: { kind: "regenerate", messageId: message.id } });
  };
  async function showBranch(messageId: number) {
    try {
      const shown = await activateBranch(conversationId, messageId);
      queryClient.setQueryData<Message[]>(
        messagesQueryKey,
        [...shown].sort((a, b) => a.id - b.id),
      );
    } catch (error) {
      toastError({ error, fallback: "That version could not be shown" });
    }
  }

  // Hands-free: what the user says is sent, and the answer saved for it is read aloud.
  const voice = useVoiceMode({
    send,
    lastAnswer: () => {
      const last = queryClient.getQueryData<Message[]>(messagesQueryKey)?.at(-1);
      return last?.role === "model" ? last.content : undefined;
    },
  });

  const visibleLive = turn.live.filter((message) => message.content.trim() !== "");

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col">
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        {settings.data?.provider === "none" && <NoModelBanner />}
        {messages && messages.length === 0 && turn.pendingUser === null && !turn.notice && (
          <p className="py-8 text-center text-sm text-muted-foreground">
            Ask SAGE anything: draft an email, outline a presentation, set a reminder or search your documents.
          </p>
        )}
        <ul ref={listRef} className="flex flex-col gap-3" aria-live="polite">
          {(messages ?? []).map((message) => (
            <Fragment key={message.id}>
              {message.toolCalls?.map((call) => {
                const document = createdDocument(call);
                const researched = researchStepsOf(call);
                if (researched) return <ResearchProgress key={`${message.id}-${call.id}`} steps={researched} />;
                return document ? (
                  <DocumentCard key={`${message.id}-${call.id}`} document={document} />
                ) : (
                  <ToolRunLine key={`${message.id}-${call.id}`} call={call} />
                );
              })}
              <ChatMessage
                role={message.role === "user" ? "user" : "ai"}
                content={message.content}
                citations={message.citations}
                onOpenCitation={onOpenCitation}
                messageId={message.id}
                highlighted={message.id === focused}
                attachments={message.attachments}
                actions={{
                  siblings: message.siblings,
                  onShowBranch: (id) => void showBranch(id),
                  onRegenerate: message.role === "model" && message.id > 0 ? () => regenerate(message) : undefined,
                  busy: turn.sending,
                }}
                onEditSend={message.role === "user" ? (text) => sendEdited(message, text) : undefined}
                failure={
                  message.role === "model" && modelFailureOf(message.content) ? { onRetry: message.id > 0 ? () => regenerate(message) : undefined } : undefined
                }
              />
            </Fragment>
          ))}
          {turn.pendingUser !== null && <ChatMessage role="user" content={turn.pendingUser} />}
          {turn.research.length > 0 && <ResearchProgress steps={turn.research} live />}
          {visibleLive.map((message, index) => (
            <ChatMessage key={`live-${index}`} role="ai" content={message.content} citations={message.citations} onOpenCitation={onOpenCitation} streaming />
          ))}
          {turn.running
            // A line of its own once the tool's server reports progress (a tool without reports shows when it ends).
            .filter((item) => item.progress && item.name !== "research")
            .map((item) => (
              <ToolProgressLine key={`running-${item.id}`} name={item.name} progress={item.progress} />
            ))}
          {turn.toolRuns.map((call) => {
            if (call.name === "research" && turn.research.length > 0) return null;
            const document = createdDocument(call);
            return document ? <DocumentCard key={`live-${call.id}`} document={document} /> : <ToolRunLine key={`live-${call.id}`} call={call} />;
          })}
          {runCards.map((approval) => (
            <ApprovalCard
              key={approval.approvalId}
              approval={approval}
              onAnswer={(approved, confirm) => answerRunCard(approval.approvalId, approved, confirm)}
            />
          ))}
          {turn.approvals.map((approval) => (
            <ApprovalCard key={approval.approvalId} approval={approval} onAnswer={(approved, confirm) => turn.answer(approval.approvalId, approved, confirm)} />
          ))}
          {turn.elicitations.map((request) => (
            <ElicitationCard key={request.elicitationId} request={request} onAnswer={(answer) => turn.answerQuestion(request.elicitationId, answer)} />
          ))}
          {turn.notice && <ChatMessage role="ai" content={NO_MODEL_NOTICE} notice details={turn.notice} />}
          {turn.remembered.map((memory) => (
            <RememberedLine key={`memory-${memory.id}`} memory={memory} onUndone={() => turn.forgetShown(memory.id)} />
          ))}
        </ul>
        {turn.sending && visibleLive.length === 0 && turn.research.length === 0 && (
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
        <ChatInput
          value={draft}
          onChange={setDraft}
          onSend={(text, options) => void send(text, options)}
          onStop={turn.stop}
          sending={turn.sending}
          attachments={attachments}
          onAttach={(files) => void attach(files)}
          onRemoveAttachment={(fileId) => setAttachments((list) => list.filter((each) => each.fileId !== fileId))}
          attaching={attaching > 0}
          voiceMode={<VoiceModeButton voice={voice} />}
          resources={resources}
          onAttachResource={(resource) => setResources((list) => [...list.filter((each) => !sameResource(each, resource)), resource])}
          onRemoveResource={(resource) => setResources((list) => list.filter((each) => !sameResource(each, resource)))}
        />
      </div>
    </section>
  );
}
