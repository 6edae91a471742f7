import type { ContentSource } from "@sage/contracts/provenance";
import { setMaxListeners } from "node:events";
import { AppError } from "../../http/app-error.ts";
import { INTERRUPTED_REASON, type HandlerOptions, type Job, type JobHandler } from "../../jobs/job-queue.ts";
import type { UnattendedTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import { composeBriefing, type BriefingSources } from "./morning-briefing.ts";
import type { RunRow, ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";
import { composeWeeklyReview, type WeeklyReviewSources } from "./weekly-review.ts";

/** The job kind of a scheduled run (decision 086): queued once per (schedule, due time), by whichever tick gets there. */
export const SCHEDULED_RUN_JOB = "schedules.run";

/** What a scheduled run's job carries: the occurrence it runs (its run row is found, or made, by these). */
export interface ScheduledRunPayload {
  scheduleId: number;
  dueAt: string;
  late: boolean;
  manual: boolean;
  /** What set off a triggered run (decision 105): read as untrusted content beside the prompt. */
  trigger?: { source: ContentSource; text: string };
}

/** The job's unique key: one job per occurrence, whichever tick or process queues it first. */
export const scheduledRunKey = (scheduleId: number, dueAt: string) => `${SCHEDULED_RUN_JOB}:${scheduleId}@${dueAt}`;

/**
 * Turns run at once, in a pool of the queue's of their own (they mostly wait on a model): high enough that a minute's
 * occurrences all start on time (the bench's 200 in one minute); a model's rate limit answers what it cannot take.
 */
const CONCURRENT_RUNS = 256;

const INTERRUPTED = "The server stopped during this run; it was not run again.";

export interface ScheduledRunDeps {
  repo: SchedulesRepo;
  turns: UnattendedTurnPort;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: ConversationStarterPort;
  now: () => Date;
  /** Tells the user's devices that a run finished or waits for Approve (web push). */
  notify?(
    userId: number,
    kind: "runs" | "approvals",
    title: string,
    conversationId: number,
    outcome?: string,
    /** The briefing's run (its message goes to the channels chosen for briefings), and what the run wrote. */
    details?: { briefing?: boolean; messageIds?: number[] },
  ): void;
  /** What the morning briefing reads (its runs are assembled by the server, not a turn). */
  briefing?: BriefingSources;
  /** What the weekly review reads (assembled by the server too). */
  weeklyReview?: WeeklyReviewSources;
  log(message: string, error?: unknown): void;
}

const payloadOf = (job: Job) => JSON.parse(job.payload) as ScheduledRunPayload;

/**
 * The scheduled run as a job handler: one whole assistant turn with no browser (or the morning briefing), written into
 * the schedule's conversation. A run the server stopped in (its job cut by a crash or a close) is marked interrupted
 * and never run again, as its turn may have done part of its work (decision 036); a run that had not begun runs.
 */
export function scheduledRunHandler(deps: ScheduledRunDeps): { handler: JobHandler<ScheduledRunPayload>; options: HandlerOptions } {
  const { repo, now } = deps;

  async function conversationFor(schedule: ScheduleRow): Promise<number> {
    if (schedule.conversationId && (await deps.conversations.ownsConversation(schedule.userId, schedule.conversationId))) return schedule.conversationId;
    const { id } = await deps.starter.create(schedule.userId, schedule.title);
    await repo.update(schedule.userId, schedule.id, { conversationId: id });
    return id;
  }

  /** The morning briefing: one message the server assembles, with its citations (morning-briefing.ts). */
  async function briefing(schedule: ScheduleRow, conversationId: number, sources: BriefingSources, signal: AbortSignal) {
    const { content, citations } = await composeBriefing(sources, {
      userId: schedule.userId,
      timezone: schedule.timezone,
      topics: briefingOptions(schedule).topics,
      now: now(),
      signal,
    });
    const [message] = await sources.messages.appendMessages(schedule.userId, conversationId, [{ role: "model", content, citations }]);
    return { status: "succeeded" as const, messageIds: message ? [message.id] : [], error: undefined as string | undefined };
  }

  /** The weekly review: one message the server assembles, with its citations (weekly-review.ts). */
  async function weeklyReview(schedule: ScheduleRow, conversationId: number, sources: WeeklyReviewSources, signal: AbortSignal) {
    const { content, citations } = await composeWeeklyReview(sources, { userId: schedule.userId, timezone: schedule.timezone, now: now(), signal });
    const [message] = await sources.messages.appendMessages(schedule.userId, conversationId, [{ role: "model", content, citations }]);
    return { status: "succeeded" as const, messageIds: message ? [message.id] : [], error: undefined as string | undefined };
  }

  async function execute(run: RunRow, schedule: ScheduleRow, signal: AbortSignal, trigger: ScheduledRunPayload["trigger"]) {
    let waitingApproval = false;
    // The waiting marks are written without holding up the turn, but in order, and before the run's end: on PostgreSQL
    // each write takes its own pooled connection, and a "running" sent at the Approve could land after the run's end.
    let marks = Promise.resolve();
    const mark = (status: "waiting-approval" | "running", failure: string) =>
      (marks = marks.then(async () => void (await repo.updateRun(run.id, { status }))).catch((error: unknown) => deps.log(failure, error)));
    try {
      const conversationId = await conversationFor(schedule);
      await repo.updateRun(run.id, { conversationId, startedAt: now().toISOString() });
      const outcome =
        schedule.template === "briefing" && deps.briefing
          ? await briefing(schedule, conversationId, deps.briefing, signal)
          : schedule.template === "weekly-review" && deps.weeklyReview
            ? await weeklyReview(schedule, conversationId, deps.weeklyReview, signal)
            : await deps.turns.run({
                userId: schedule.userId,
                conversationId,
                prompt: schedule.prompt,
                ...(schedule.derivedFrom ? { promptFrom: JSON.parse(schedule.derivedFrom) as ContentSource } : {}),
                ...(trigger ? { trigger } : {}),
                signal,
                onWaitingApproval: () => {
                  waitingApproval = true;
                  deps.notify?.(schedule.userId, "approvals", schedule.title, conversationId);
                  void mark("waiting-approval", "could not mark a run waiting");
                },
                onApprovalAnswered: () => {
                  if (!waitingApproval) return;
                  waitingApproval = false;
                  void mark("running", "could not mark a run running");
                },
              });
      // What a run wrote shows as unread on its conversation until the user opens it.
      if (outcome.messageIds.length > 0) await deps.starter.markUnread(schedule.userId, conversationId, now().toISOString());
      // Closing the server aborts the turn: what it wrote is saved, and the run says it was interrupted.
      const status = signal.aborted ? "interrupted" : outcome.status;
      await marks;
      await repo.updateRun(run.id, {
        status,
        finishedAt: now().toISOString(),
        messageIds: JSON.stringify(outcome.messageIds),
        error: status === "interrupted" ? INTERRUPTED : (outcome.error ?? null),
      });
      if (status !== "interrupted") {
        deps.notify?.(schedule.userId, "runs", schedule.title, conversationId, status, {
          briefing: schedule.template === "briefing" || schedule.template === "weekly-review",
          messageIds: outcome.messageIds,
        });
      }
    } catch (error) {
      if (!(error instanceof AppError)) deps.log("a scheduled run failed", error);
      const reason = error instanceof AppError ? error.message : "SAGE could not finish this run.";
      await marks;
      await repo
        .updateRun(run.id, { status: "failed", finishedAt: now().toISOString(), error: reason })
        .catch((failure: unknown) => deps.log("could not record a failed run", failure));
    }
  }

  const handler: JobHandler<ScheduledRunPayload> = async ({ payload, signal }) => {
    const schedule = await repo.byId(payload.scheduleId);
    // Deleted since it was queued: its runs went with it.
    if (!schedule) return;
    // The run row is made when the job is queued; a crash between the two leaves it to be made here.
    const run = await repo.ensureRun({ schedule, dueAt: payload.dueAt, startedAt: now().toISOString(), late: payload.late, manual: payload.manual });
    // Marked already (interrupted before this job ran, as a run made before runs were jobs): not run again.
    if (run.status !== "running") return;
    // Every running turn listens for the close (its transcript saves what it wrote).
    setMaxListeners(0, signal);
    await execute(run, schedule, signal, payload.trigger);
  };

  /**
   * A run whose job ended without it: the server stopped in it (a crash, or a close before it began), marked
   * interrupted and never run again; or the job itself failed (the store unreachable), marked failed.
   */
  async function endUnfinished(job: Job, error: string) {
    const { scheduleId, dueAt } = payloadOf(job);
    const interrupted = error.startsWith(INTERRUPTED_REASON);
    if (!interrupted) deps.log(`scheduled run of schedule ${scheduleId} failed: ${error}`);
    await repo.endRun(scheduleId, dueAt, {
      status: interrupted ? "interrupted" : "failed",
      finishedAt: now().toISOString(),
      error: interrupted ? INTERRUPTED : "SAGE could not finish this run.",
    });
  }

  return {
    handler,
    options: { onInterrupted: "fail", slots: CONCURRENT_RUNS, onFailed: endUnfinished },
  };
}

/** The briefing's settings kept in the schedule's options. */
export function briefingOptions(schedule: Pick<ScheduleRow, "options">): { time: string; days: "daily" | "weekdays"; topics: string[] } {
  try {
    const options = JSON.parse(schedule.options) as { time?: string; days?: string; topics?: unknown };
    return {
      time: options.time ?? "07:00",
      days: options.days === "daily" ? "daily" : "weekdays",
      topics: Array.isArray(options.topics) ? options.topics.filter((topic): topic is string => typeof topic === "string") : [],
    };
  } catch {
    return { time: "07:00", days: "weekdays", topics: [] };
  }
}
