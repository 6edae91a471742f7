import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Store } from "../../store/open-store.ts";
import type { AssistantTool, UnattendedTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import type { BriefingSources } from "./morning-briefing.ts";
import type { WeeklyReviewSources } from "./weekly-review.ts";
import { SCHEDULED_RUN_JOB, scheduledRunHandler } from "./scheduled-run.ts";
import { createScheduler } from "./scheduler.ts";
import { createSchedulesRepo } from "./schedules.repo.ts";
import { createScheduleTriggers } from "./schedule-triggers.ts";
import { registerScheduleRoutes } from "./schedules.routes.ts";
import { scheduleTaskTool } from "./schedule-task-tool.ts";
import { createSchedulesService } from "./schedules.service.ts";

export type { BriefingSources } from "./morning-briefing.ts";

export interface SchedulesModule extends AppModule {
  /** Queues what is due now, and settles once nothing queued is running (tests and the bench). */
  control: { tick(): Promise<void>; idle(): Promise<void> };
  /** A mail account of the user finished syncing: mail triggers look at the new mail (decision 105). */
  mailSynced(userId: number): Promise<void>;
  /** The scheduleTask tool the assistant offers. */
  tools: AssistantTool[];
  /**
   * Runs the scheduled runs with the assistant's unattended turns and web search (the briefing's news): registers the
   * `schedules.run` job handler. The assistant is built after this module (it offers `tools`), so this comes then.
   */
  runWith(assistant: { turns: UnattendedTurnPort; webSearch: BriefingSources["webSearch"] }): void;
}

/**
 * Scheduled prompts (decision 036): /api/schedules, and the scheduler that queues each occurrence once as a job of
 * the one queue (decision 086), whose handler runs it as a whole assistant turn with no browser.
 */
export function createSchedulesModule(deps: {
  /** SQLite's synchronous statements when the store has them (decision 058). */
  store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>;
  jobs: JobQueue;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: ConversationStarterPort;
  now?: () => Date;
  /** How often at least the scheduler looks (SAGE_SCHEDULER_TICK_S). */
  schedulerTickMs?: number;
  /** What the morning briefing reads besides the web. */
  briefing: Omit<BriefingSources, "webSearch">;
  /** What the weekly review reads besides the briefing's calendar, model and messages. */
  weeklyReview?: Pick<WeeklyReviewSources, "commitments">;
  /** Web push of finished runs and runs waiting for Approve. */
  notify?(
    userId: number,
    kind: "runs" | "approvals",
    title: string,
    conversationId: number,
    outcome?: string,
    /** The briefing's run (its message goes to the channels chosen for briefings), and what the run wrote. */
    details?: { briefing?: boolean; messageIds?: number[] },
  ): void;
  /** A synced mail's text (mail triggers match it and their runs read it). */
  mailText?: (userId: number, itemId: number, maxChars: number) => Promise<string>;
  /** The briefing's zone until the user picks one. */
  defaultTimeZone: string;
  warn(message: string, error?: unknown): void;
  /** Logs at debug level: each look for due runs (the two-processes test waits for both processes' looks). */
  debug?(message: string): void;
}): SchedulesModule {
  const now = deps.now ?? (() => new Date());
  const repo = createSchedulesRepo(deps.store);
  const triggers = createScheduleTriggers({ repo, jobs: deps.jobs, now, ...(deps.mailText ? { mailText: deps.mailText } : {}), log: deps.warn });
  const scheduler = createScheduler({
    repo,
    jobs: deps.jobs,
    now,
    triggers,
    log: deps.warn,
    looked: (at) => deps.debug?.(`schedules: looked for due runs at ${at.toISOString()}`),
    tickMs: deps.schedulerTickMs,
  });
  const service = createSchedulesService({ repo, conversations: deps.conversations, scheduler, now });
  let runs = false;
  return {
    tools: [scheduleTaskTool({ service, now })],
    mailSynced: (userId) => triggers.mailSynced(userId),
    control: {
      tick: scheduler.tick,
      // A sync's job sets off a look at its mail, which queues runs: settled when none of the three is left.
      async idle() {
        await scheduler.idle();
        await triggers.idle();
        await scheduler.idle();
      },
    },
    runWith(assistant) {
      const { handler, options } = scheduledRunHandler({
        repo,
        turns: assistant.turns,
        conversations: deps.conversations,
        starter: deps.starter,
        now,
        notify: deps.notify,
        briefing: { ...deps.briefing, webSearch: assistant.webSearch },
        ...(deps.weeklyReview
          ? {
              weeklyReview: {
                ...(deps.briefing.calendar ? { calendar: deps.briefing.calendar } : {}),
                commitments: deps.weeklyReview.commitments,
                meetingNotes: repo.meetingNotes,
                llm: deps.briefing.llm,
                messages: deps.briefing.messages,
              },
            }
          : {}),
        log: deps.warn,
      });
      deps.jobs.register(SCHEDULED_RUN_JOB, handler, options);
      runs = true;
    },
    async register(app) {
      if (!runs) throw new Error("the schedules module needs runWith(assistant) before it is registered");
      await registerScheduleRoutes(app, { service, triggers, defaultTimeZone: deps.defaultTimeZone });
      app.addHook("onReady", () => scheduler.start());
      app.addHook("onClose", () => scheduler.stop());
    },
  };
}
