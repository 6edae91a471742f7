import type { ContentSource } from "@sage/contracts/provenance";
import type { ChatTurnService, TurnEvents } from "./chat-turn.service.ts";

/** How a turn nobody watched went: the messages it wrote, and why it did not finish well when it did not. */
export interface UnattendedOutcome {
  status: "succeeded" | "failed" | "not-approved";
  messageIds: number[];
  error?: string;
}

/** A whole assistant turn with tools and no browser (a scheduled run, decision 036). */
export interface UnattendedTurnPort {
  run(request: {
    userId: number;
    conversationId: number;
    prompt: string;
    /** The prompt came from a mail's or document's words (issue 47): the run reads it as that content. */
    promptFrom?: ContentSource;
    /** What set off a triggered run (the mail, event or webhook body): read as untrusted content beside the prompt. */
    trigger?: { source: ContentSource; text: string };
    signal: AbortSignal;
    /** A step waits for the user's Approve (its card is pending in GET /api/approvals). */
    onWaitingApproval(): void;
    /** The user answered; the run goes on. */
    onApprovalAnswered(): void;
  }): Promise<UnattendedOutcome>;
}

/**
 * Runs the chat's own turn (the same loop, tools, memory and citations) with an event sink instead of a stream.
 * Tools that reach outside SAGE wait for Approve (PreparedTurn.unattended); a model failure or no model is a
 * failed run with the plain reason.
 */
export function createUnattendedTurns(chatTurns: ChatTurnService): UnattendedTurnPort {
  return {
    async run(request) {
      const prepared = await chatTurns.prepare(request.userId, request.conversationId, { content: request.prompt });
      const turn = {
        ...prepared,
        unattended: true,
        ...(request.promptFrom ? { promptFrom: request.promptFrom } : {}),
        ...(request.trigger ? { trigger: request.trigger } : {}),
      };
      const messageIds: number[] = [];
      let error: string | undefined;
      const events: TurnEvents = {
        signal: request.signal,
        send(event) {
          if (event.type === "user-message") messageIds.push(event.message.id);
          else if (event.type === "approval-required") request.onWaitingApproval();
          else if (event.type === "tool-result") request.onApprovalAnswered();
          else if (event.type === "notice") error = event.text;
        },
        fail(failure) {
          error = failure instanceof Error ? failure.message : String(failure);
        },
      };
      const done = await chatTurns.run(turn, events);
      messageIds.push(...done.messages.map((message) => message.id));
      const declined = done.messages.some((message) => message.toolCalls?.some((call) => call.approval && call.approval.answer !== "approved"));
      if (error !== undefined) return { status: "failed", messageIds, error };
      return { status: declined ? "not-approved" : "succeeded", messageIds };
    },
  };
}
