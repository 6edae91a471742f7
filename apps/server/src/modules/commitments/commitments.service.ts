import {
  COMMITMENT_TEXTS,
  type Commitment,
  type CommitmentDirection,
  type CommitmentList,
  type CommitmentStatus,
  type UpdateCommitmentRequest,
} from "@sage/contracts/commitments";
import type { ContentSource } from "@sage/contracts/provenance";
import { REMINDER_TITLE_MAX, type Reminder } from "@sage/contracts/reminders";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import type { RemindersPort } from "../reminders/reminders.module.ts";
import type { CommitmentRow, CommitmentsRepo } from "./commitments.repo.ts";

export function toCommitment(row: CommitmentRow): Commitment {
  return {
    id: row.id,
    direction: row.direction,
    kind: row.kind,
    owner: row.owner,
    counterparty: row.counterparty,
    what: row.what,
    dueDate: row.dueDate,
    status: row.status,
    quote: row.quote,
    source: {
      kind: row.sourceKind,
      itemId: row.itemId,
      page: row.page,
      conversationId: row.conversationId,
      messageId: row.messageId,
      title: row.sourceTitle,
      date: row.sourceDate,
    },
    reminderId: row.reminderId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.derivedFrom ? { derivedFrom: JSON.parse(row.derivedFrom) as ContentSource, kept: Number(row.kept) === 1 } : {}),
  };
}

/** "Send the Q3 deck to Anna", "Anna: approve the budget": a commitment as one line. */
export function commitmentLine(commitment: Pick<Commitment, "direction" | "owner" | "counterparty" | "what">): string {
  return commitment.direction === "mine" ? `${commitment.what} (for ${commitment.counterparty})` : `${commitment.owner}: ${commitment.what}`;
}

export function createCommitmentsService(deps: {
  repo: CommitmentsRepo;
  reminders: RemindersPort;
  modelAvailable: boolean;
  now: () => Date;
  /** Whether the user's extraction job is queued or running. */
  running(userId: number): Promise<boolean>;
  /** Queues the user's extraction now (Look for new commitments now). */
  scan(userId: number): Promise<void>;
}) {
  const { repo } = deps;
  const find = async (userId: number, id: number) => {
    const row = await repo.get(userId, id);
    if (!row) throw notFound(COMMITMENT_TEXTS.notFound, "commitment_not_found");
    return row;
  };
  return {
    async list(userId: number, filter: { show?: CommitmentDirection; status: CommitmentStatus | "all"; dueBy?: string }): Promise<CommitmentList> {
      const rows = await repo.list(userId, { direction: filter.show, status: filter.status, dueBy: filter.dueBy });
      return {
        commitments: rows.map(toCommitment),
        extraction: {
          available: deps.modelAvailable,
          message: deps.modelAvailable ? null : COMMITMENT_TEXTS.noModel,
          lastRunAt: await repo.lastScanAt(userId),
          running: await deps.running(userId),
        },
      };
    },

    /** Look for new commitments now, rather than at the next round; without a model there is nothing to do. */
    async scan(userId: number): Promise<{ queued: true }> {
      if (!deps.modelAvailable) throw new AppError("no_model", 409, COMMITMENT_TEXTS.noModel);
      await deps.scan(userId);
      return { queued: true };
    },

    /** A 404 for an id that is not the user's, before the body is looked at (another user's id reads as none). */
    /** Not found unless it is the user's (before a change is looked at). */
    async check(userId: number, id: number) {
      await find(userId, id);
    },

    async update(userId: number, id: number, change: UpdateCommitmentRequest): Promise<Commitment> {
      await find(userId, id);
      const { kept, ...rest } = change;
      await repo.update(userId, id, { ...rest, ...(kept ? { kept: 1 } : {}) }, deps.now().toISOString());
      return toCommitment((await repo.get(userId, id))!);
    },

    /**
     * Remind me: a whole-day reminder on the due day, its description the quoted sentence and where it is from. One of
     * a stranger's mail not kept yet makes a reminder that waits for Keep too (issue 47).
     */
    async remind(userId: number, id: number): Promise<{ reminder: Reminder; commitment: Commitment }> {
      const row = await find(userId, id);
      if (!row.dueDate) throw badRequest(COMMITMENT_TEXTS.needsDueDate, "commitment_undated");
      const soon = new Date(`${row.dueDate}T00:00:00Z`).getTime() - deps.now().getTime() < 2 * 86_400_000;
      const reminder = await deps.reminders.create(
        userId,
        {
          title: commitmentLine(row).slice(0, REMINDER_TITLE_MAX),
          description: `"${row.quote}" (${row.sourceTitle})`,
          dueDate: row.dueDate,
          priority: soon ? "high" : "medium",
          type: "reminder",
          status: "unread",
          conversationId: row.conversationId ?? undefined,
        },
        ...(row.derivedFrom ? [{ derivedFrom: JSON.parse(row.derivedFrom) as ContentSource, kept: Number(row.kept) === 1 }] : []),
      );
      await repo.update(userId, id, { reminderId: reminder.id }, deps.now().toISOString());
      return { reminder, commitment: toCommitment((await repo.get(userId, id))!) };
    },
  };
}

export type CommitmentsService = ReturnType<typeof createCommitmentsService>;
