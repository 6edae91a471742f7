import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { UnattendedTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort } from "../conversations/conversations.module.ts";
import { scheduledRunHandler, type ScheduledRunPayload } from "./scheduled-run.ts";
import type { RunRow, ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";

const schedule = {
  id: 7,
  userId: 3,
  title: "Inbox follow-up",
  prompt: "Follow up",
  conversationId: 11,
  template: null,
  derivedFrom: null,
} as unknown as ScheduleRow;

/**
 * A run that waits for Approve and is answered, over a store whose "running" write is slow to land (on PostgreSQL
 * each write takes a pooled connection of its own, so nothing orders two writes sent one after the other).
 */
async function runAnsweredWithSlowMark() {
  const landed: string[] = [];
  const repo = {
    byId: async () => schedule,
    ensureRun: async () => ({ id: 40, status: "running" }) as RunRow,
    async updateRun(_id: number, fields: { status?: string }) {
      if (fields.status === "running") for (let turn = 0; turn < 20; turn++) await nextTurn();
      if (fields.status) landed.push(fields.status);
    },
  } as unknown as SchedulesRepo;
  const turns = {
    async run(input: { onWaitingApproval(): void; onApprovalAnswered(): void }) {
      input.onWaitingApproval();
      await nextTurn();
      input.onApprovalAnswered();
      return { status: "succeeded", messageIds: [] };
    },
  } as unknown as UnattendedTurnPort;
  const { handler } = scheduledRunHandler({
    repo,
    turns,
    conversations: { ownsConversation: async () => true },
    starter: { markUnread: async () => undefined } as unknown as ConversationStarterPort,
    now: () => new Date("2026-12-04T08:00:00Z"),
    log: () => undefined,
  });
  const payload: ScheduledRunPayload = { scheduleId: schedule.id, dueAt: "2026-12-04T08:00:00.000Z", late: false, manual: false };
  await handler({ job: {} as never, payload, progress: async () => undefined, signal: new AbortController().signal });
  return landed;
}

describe("a scheduled run's status", () => {
  it("ends as the run ended, though its 'running again' mark after Approve landed slowly", async () => {
    expect(await runAnsweredWithSlowMark()).toEqual(["waiting-approval", "running", "succeeded"]);
  });
});
