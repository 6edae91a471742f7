import type { TurnEvent } from "@sage/contracts/chat-turn";
import type { Message } from "@sage/contracts/conversations";
import type { ChatTurnService, TurnEvents } from "./chat-turn.service.ts";

/**
 * A whole assistant turn driven by something other than the web app's stream (a channel: Telegram, Slack, e-mail):
 * the same prepare and run as POST /api/conversations/{id}/turn, its events handed to `send`. The user is there, so
 * cards wait for their answer in the channel as they would in the browser.
 */
export interface ConversationTurnPort {
  run(request: {
    userId: number;
    conversationId: number;
    content: string;
    /** Files of the conversation's knowledge sent with the message. */
    attachments?: number[];
    signal: AbortSignal;
    send(event: TurnEvent): void;
    /** A failure the turn went on after (the model's call failed): in plain words. */
    fail?(message: string): void;
  }): Promise<{ messages: Message[] }>;
}

export function createConversationTurns(chatTurns: ChatTurnService): ConversationTurnPort {
  return {
    async run(request) {
      const turn = await chatTurns.prepare(request.userId, request.conversationId, {
        content: request.content,
        ...(request.attachments?.length ? { attachments: request.attachments } : {}),
      });
      const events: TurnEvents = {
        signal: request.signal,
        send: (event) => request.send(event as TurnEvent),
        fail: (failure) => request.fail?.(failure instanceof Error ? failure.message : String(failure)),
      };
      const done = await chatTurns.run(turn, events);
      return { messages: done.messages };
    },
  };
}
