import { useQueryClient } from "@tanstack/react-query";
import { CHAT_TEXTS, RESEARCH_TEXTS } from "@sage/contracts/chat-turn";
import type { Message } from "@sage/contracts/conversations";
import type { ElicitationAnswer } from "@sage/contracts/elicitation";
import type { ApprovalDecision, ResourceRef } from "@sage/contracts/external-tools";
import { useEffect, useReducer, useRef } from "react";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { answerApproval } from "../api/answer-approval";
import { forgetAnsweredApproval } from "../api/get-pending-approvals";
import { answerElicitation } from "../api/tool-offers";
import { runBranchTurn, runTurn, type BranchStart } from "../api/run-turn";
import { INITIAL_CHAT_TURN, chatTurnReducer } from "../chat-turn-state";
import { EMPTY_LIVE_TURN, applyTurnEvent, toolFailure, turnFailureText, turnFailureTitle } from "../live-turn";

const isAbort = (error: unknown) => error instanceof Error && error.name === "AbortError";

/** Messages added to a cached list, each once. */
const withMessages = (list: Message[] | undefined, added: Message[]) => [
  ...(list ?? []).filter((message) => !added.some((item) => item.id === message.id)),
  ...added,
];

/**
 * The shown list up to where a new branch starts: before an edited message, or after the user message an answer
 * being regenerated replied to.
 */
function cutAt(list: Message[] | undefined, start: BranchStart): Message[] | undefined {
  if (!list) return list;
  let at = list.findIndex((message) => message.id === start.messageId);
  if (at < 0) return list;
  if (start.kind === "regenerate") while (at > 0 && list[at - 1]!.role === "model") at--;
  return list.slice(0, at);
}

interface ChatTurnOptions {
  conversationId: string;
  /** Where the conversation's messages are cached: saved messages are added there as the turn reports them. */
  messagesQueryKey: readonly unknown[];
  /** The model to ask for; the server's default when undefined. */
  model: () => string | undefined;
}

/**
 * A chat turn as the client sees it: one streamed request, whose events it shows (text, citations, reminders,
 * notices, failures); the server runs the model and the tools and saves the messages.
 */
export function useChatTurn({ conversationId, messagesQueryKey, model }: ChatTurnOptions) {
  const queryClient = useQueryClient();
  // What the turn shows, one reducer over its events (chat-turn-state.ts); the side effects stay here.
  const [state, dispatch] = useReducer(chatTurnReducer, INITIAL_CHAT_TURN);
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);

  const addMessages = (added: Message[]) => queryClient.setQueryData<Message[]>(messagesQueryKey, (list) => withMessages(list, added));

  /**
   * Reads the list again until it ends with a saved answer (the server's, to a stopped run), keeping `placeholder`
   * shown until then; gives up after a minute, leaving the placeholder.
   */
  async function untilAnswerSaved(placeholder: Message) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await queryClient.refetchQueries({ queryKey: messagesQueryKey, exact: true });
      const last = queryClient.getQueryData<Message[]>(messagesQueryKey)?.at(-1);
      if (last?.role === "model" && last.id > 0) return;
      addMessages([placeholder]);
      if (Date.now() > deadline || abortRef.current) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /**
   * Runs one turn (on a new branch when `options.branch` says where: an edit, a regenerated answer; a research run
   * when `options.research`); answers true when nothing was saved, so the caller can give the user their words back.
   */
  async function send(
    content: string,
    attachments: number[] = [],
    options: { research?: boolean; branch?: BranchStart; resources?: ResourceRef[] } = {},
  ): Promise<{ nothingSaved: boolean }> {
    const { branch } = options;
    const controller = new AbortController();
    abortRef.current = controller;
    dispatch({ type: "start", pendingUser: branch?.kind === "regenerate" ? null : content });
    // What the branch replaces leaves the screen at once; the list is read again (with the versions) at the end.
    if (branch) queryClient.setQueryData<Message[]>(messagesQueryKey, (list) => cutAt(list, branch));
    let turn = EMPTY_LIVE_TURN;
    let userSaved = false;
    let finished = false;
    let toolRan = false;
    let researched = false;
    // An event this client could not read: what it showed may differ from what the server saved.
    let unsure = false;
    try {
      const request = {
        content,
        model: model(),
        ...(attachments.length ? { attachments } : {}),
        ...(options.research ? { research: true } : {}),
        ...(options.resources?.length ? { resources: options.resources } : {}),
      };
      const events = branch
        ? runBranchTurn(conversationId, branch, branch.kind === "edit" ? request : { model: request.model }, controller.signal)
        : runTurn(conversationId, request, controller.signal);
      for await (const event of events) {
        if (event.type === "unreadable") {
          unsure = true;
          continue;
        }
        // What was shown so far, for a turn cut off before its end (kept in the list below).
        turn = event.type === "done" ? EMPTY_LIVE_TURN : applyTurnEvent(turn, event);
        dispatch({ type: "event", event });
        switch (event.type) {
          case "user-message":
            userSaved = true;
            addMessages([event.message]);
            break;
          case "tool-call":
            toolRan = true;
            break;
          case "tool-result": {
            const failure = toolFailure(event.result);
            if (failure) toastError({ description: failure });
            break;
          }
          case "reminder-created":
            // Every reminder list (the sheet, the conversation's panel, the badge) reads again: they are keyed under "reminders".
            void queryClient.invalidateQueries({ queryKey: ["reminders"] });
            toast({ title: CHAT_TEXTS.reminderToastTitle, description: CHAT_TEXTS.reminderToastDescription });
            break;
          case "document-created":
            // The new file is in the conversation's knowledge: the knowledge feature's lists (keyed under "knowledge") read again.
            void queryClient.invalidateQueries({ queryKey: ["knowledge"] });
            break;
          case "research-step":
            researched = true;
            break;
          case "notice":
            if (event.text === CHAT_TEXTS.imagesAsText) toast({ title: "Pictures sent as text", description: event.text });
            break;
          case "error":
            // A failed chat call is toasted; after a tool ran, the saved answer says what was done (and a reminder's toast stays).
            if (!toolRan) toastError({ title: turnFailureTitle(event), description: turnFailureText(event) });
            break;
          case "done":
            finished = true;
            addMessages(event.messages);
            break;
        }
      }
    } catch (error) {
      if (!isAbort(error) && !controller.signal.aborted) {
        toastError({ error, fallback: CHAT_TEXTS.unknownError });
      }
    } finally {
      if (finished && (unsure || branch)) void queryClient.invalidateQueries({ queryKey: messagesQueryKey });
      if (!finished) {
        // Stopped or cut off: keep what was shown (the server saved it too); read the list again when unsure.
        const shown = turn.messages.filter((message) => message.content.trim() !== "");
        const now = new Date().toISOString();
        if (userSaved && shown.length > 0) {
          addMessages(
            shown.map((message, index) => ({
              id: -Date.now() - index,
              conversationId: Number(conversationId),
              role: "model",
              content: message.content,
              createdAt: now,
              citations: message.citations,
            })),
          );
        }
        if (!userSaved || !controller.signal.aborted) void queryClient.invalidateQueries({ queryKey: messagesQueryKey });
        else if (researched && shown.length === 0) {
          // A research run stopped before its report: say so at once; the server's answer (with the sources found
          // so far as chips) replaces it once the server has seen the Stop and saved it.
          const placeholder: Message = {
            id: -Date.now(),
            conversationId: Number(conversationId),
            role: "model",
            content: RESEARCH_TEXTS.stopped,
            createdAt: now,
          };
          addMessages([placeholder]);
          void untilAnswerSaved(placeholder);
        }
      }
      if (abortRef.current === controller) abortRef.current = null;
      dispatch({ type: "end" });
    }
    return { nothingSaved: !userSaved && !unsure && !controller.signal.aborted };
  }

  const forgetShown = (id: number) => dispatch({ type: "memory-forgotten", id });
  /** The user's answer to a tool call waiting for approval; the card goes once the server took it. */
  async function answer(approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]) {
    try {
      await answerApproval(approvalId, { approved, ...(confirm ? { confirm } : {}) });
      await forgetAnsweredApproval(queryClient, approvalId);
      dispatch({ type: "approval-answered", approvalId });
    } catch (error) {
      toastError({ error, fallback: CHAT_TEXTS.unknownError });
    }
  }

  /** The user's answer to a tool server's question; a form's card goes once the server took it, a page's waits for the tool. */
  async function answerQuestion(elicitationId: string, answer: ElicitationAnswer) {
    try {
      await answerElicitation(elicitationId, answer);
      if (answer.action !== "accept" || answer.content) dispatch({ type: "question-answered", elicitationId });
    } catch (error) {
      toastError({ error, fallback: CHAT_TEXTS.unknownError });
    }
  }

  return {
    send,
    stop: () => abortRef.current?.abort(),
    sending: state.status !== "ready",
    pendingUser: state.pendingUser,
    live: state.live.messages,
    notice: state.notice,
    approvals: state.approvals,
    toolRuns: state.toolRuns,
    research: state.research,
    running: state.running,
    elicitations: state.elicitations,
    answerQuestion,
    answer,
    remembered: state.remembered,
    forgetShown,
  };
}
