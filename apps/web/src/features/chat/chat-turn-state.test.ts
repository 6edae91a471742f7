import { CHAT_TEXTS } from "@sage/contracts/chat-turn";
import type { Message } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import type { TurnEvent } from "./api/run-turn";
import { INITIAL_CHAT_TURN, chatTurnReducer, type ChatTurnAction, type ChatTurnState } from "./chat-turn-state";

const at = "2031-03-04T09:00:00.000Z";
const saved = (id: number, role: Message["role"], content: string): Message => ({ id, conversationId: 7, role, content, createdAt: at });
const events = (...list: TurnEvent[]): ChatTurnAction[] => list.map((event) => ({ type: "event", event }));
const play = (state: ChatTurnState, ...actions: ChatTurnAction[]) => actions.reduce(chatTurnReducer, state);

/** A turn that sends a mail: the call waits for Approve, the server reports progress, then the answer. */
const approvalCard = {
  approvalId: "a-1",
  name: "sendEmail",
  args: { to: "anna@kestrel.example" },
  risk: "asked" as const,
  provenance: {},
};

describe("chatTurnReducer", () => {
  it("shows the user's words, then the tool waiting for Approve, its progress, its run, and the answer as it streams", () => {
    const started = play(INITIAL_CHAT_TURN, { type: "start", pendingUser: "Mail Anna the agenda" });
    expect(started).toMatchObject({ status: "streaming", pendingUser: "Mail Anna the agenda" });

    const asking = play(
      started,
      ...events(
        { type: "user-message", message: saved(1, "user", "Mail Anna the agenda") },
        { type: "text-delta", text: "Sending it." },
        { type: "tool-call", id: "call-1", name: "sendEmail", args: { to: "anna@kestrel.example" } },
        { type: "approval-required", ...approvalCard },
        { type: "tool-progress", id: "call-1", progress: 1, total: 2, message: "Connecting" },
      ),
    );
    expect(asking.pendingUser).toBeNull();
    expect(asking.approvals).toEqual([approvalCard]);
    expect(asking.running).toEqual([{ id: "call-1", name: "sendEmail", progress: { progress: 1, total: 2, message: "Connecting" } }]);
    expect(asking.live.messages.map((message) => message.content)).toEqual(["Sending it."]);

    const ran = play(
      asking,
      ...events({ type: "tool-result", id: "call-1", name: "sendEmail", result: { success: true } }, { type: "text-delta", text: "Sent to Anna." }),
    );
    // The card and the running line go once the tool answered; its run keeps the arguments it was called with.
    expect(ran.approvals).toEqual([]);
    expect(ran.running).toEqual([]);
    expect(ran.toolRuns).toEqual([{ id: "call-1", name: "sendEmail", args: { to: "anna@kestrel.example" }, result: { success: true } }]);
    expect(ran.live.messages.map((message) => message.content)).toEqual(["Sending it.", "Sent to Anna."]);

    // The saved messages replace the live turn in the same step (never both on screen); the request then ends.
    const done = play(ran, ...events({ type: "done", messages: [saved(2, "model", "Sending it."), saved(3, "model", "Sent to Anna.")] }));
    expect(done.live.messages).toEqual([]);
    expect(done.toolRuns).toEqual([]);
    expect(done.status).toBe("streaming");
    expect(play(done, { type: "end" })).toMatchObject({ status: "ready", pendingUser: null, approvals: [], running: [] });
  });

  it("keeps a memory saved during a turn after it ends, until the user undoes it", () => {
    const memory = { id: 5, content: "Anna prefers mornings", createdAt: at, updatedAt: at, source: "assistant" as const };
    const ended = play(INITIAL_CHAT_TURN, { type: "start", pendingUser: "x" }, ...events({ type: "memory-saved", memory }), { type: "end" });
    expect(ended.remembered).toEqual([memory]);
    expect(play(ended, { type: "memory-forgotten", id: 5 }).remembered).toEqual([]);
  });

  it("shows the server's notice until the next turn starts; pictures sent as text are not a notice", () => {
    const noticed = play(INITIAL_CHAT_TURN, ...events({ type: "notice", text: "No model is set up" }), { type: "end" });
    expect(noticed.notice).toBe("No model is set up");
    expect(play(noticed, { type: "start", pendingUser: "again" }).notice).toBeNull();
    expect(play(INITIAL_CHAT_TURN, ...events({ type: "notice", text: CHAT_TEXTS.imagesAsText })).notice).toBeNull();
  });

  it("drops an answered approval card, and keeps the others", () => {
    const two = play(
      INITIAL_CHAT_TURN,
      ...events({ type: "approval-required", ...approvalCard }, { type: "approval-required", ...approvalCard, approvalId: "a-2" }),
    );
    expect(play(two, { type: "approval-answered", approvalId: "a-1" }).approvals.map((card) => card.approvalId)).toEqual(["a-2"]);
  });
});
