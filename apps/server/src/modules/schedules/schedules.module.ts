import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import type { AssistantTool, UnattendedTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import type { BriefingSources } from "./morning-briefing.ts";
import { createScheduler } from "./scheduler.ts";
import { createSchedulesRepo } from "./schedules.repo.ts";
import { registerScheduleRoutes } from "./schedules.routes.ts";
import { scheduleTaskTool } from "./schedule-task-tool.ts";
import { createSchedulesService } from "./schedules.service.ts";

export type { BriefingSources } from "./morning-briefing.ts";

export interface SchedulesModule extends AppModule {
  /** Runs what is due now and settles when every started run has finished (tests and the bench). */
  control: { tick(): Promise<void>; idle(): Promise<void> };
}

/**
 * Scheduled prompts (decision 036): /api/schedules, and the scheduler that runs each occurrence once as a whole
 * assistant turn with no browser, started when the app is ready and stopped when it closes. The assistant's turn
 * comes in as `turns`, a late-bound port, since the assistant in turn offers this module's scheduleTask tool.
 */
export function createSchedulesModule(deps: {
  /** SQLite's synchronous statements when the store has them (decision 058). */
  store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>;
  /** Several processes share the database: runs are leased, and only a run whose lease ran out is taken over. */
  shared?: boolean;
  turns: UnattendedTurnPort;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: ConversationStarterPort;
  now?: () => Date;
  /** What the morning briefing reads; bound late, as the assistant's turns are. */
  briefing?: BriefingSources;
  /** Web push of finished runs and runs waiting for Approve. */
  notify?(userId: number, kind: "runs" | "approvals", title: string, conversationId: number, outcome?: string): void;
  /** The briefing's zone until the user picks one. */
  defaultTimeZone: string;
  warn(message: string, error?: unknown): void;
}): SchedulesModule & { tools: AssistantTool[] } {
  const now = deps.now ?? (() => new Date());
  const repo = createSchedulesRepo(deps.store);
  const scheduler = createScheduler({
    repo,
    shared: deps.shared ? {} : undefined,
    turns: deps.turns,
    conversations: deps.conversations,
    starter: deps.starter,
    now,
    briefing: deps.briefing,
    notify: deps.notify,
    log: deps.warn,
  });
  const service = createSchedulesService({ repo, conversations: deps.conversations, scheduler, now });
  return {
    tools: [scheduleTaskTool({ service, now })],
    control: { tick: scheduler.tick, idle: scheduler.idle },
    register(app) {
      registerScheduleRoutes(app, { service, defaultTimeZone: deps.defaultTimeZone });
      app.addHook("onReady", () => scheduler.start());
      app.addHook("onClose", () => scheduler.stop());
    },
  };
}
