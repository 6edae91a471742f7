import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { Database } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { RemindersPort } from "../reminders/reminders.module.ts";
import { createPushRepo } from "./push.repo.ts";
import { registerPushRoutes } from "./push.routes.ts";
import { createPushService, type PushService } from "./push.service.ts";

/** How often due reminders are looked for. */
const REMINDER_ROUND_MS = 60_000;

export { reminderDueAt, reminderDueNow } from "./push.service.ts";

/** What the scheduler tells the user's devices: a run finished, or waits for Approve. */
export type RunNotifier = PushService["runEvent"];

export interface PushModule extends AppModule {
  runEvent: RunNotifier;
  /** The reminders round, run now (tests). */
  control: { pushDueReminders(): Promise<void>; idle(): Promise<void> };
}

/**
 * Web push (decision 041): a VAPID pair made once with its private half sealed, each user's devices, and pushes for
 * reminders at their due time, finished scheduled runs and runs waiting for Approve, each kind switchable.
 */
export function createPushModule(deps: {
  db: Kysely<Database>;
  box: SecretBox;
  allowPrivate: boolean;
  contact: string;
  reminders: Pick<RemindersPort, "list">;
  timeZone(userId: number): Promise<string>;
  /** Whether the user wants a kind on web push (the channels module's targets). */
  delivers?(userId: number, kind: "reminders" | "runs" | "approvals"): Promise<boolean>;
  now?: () => Date;
  warn(message: string, error?: unknown): void;
}): PushModule {
  const service = createPushService({
    repo: createPushRepo(deps.db),
    box: deps.box,
    allowPrivate: deps.allowPrivate,
    contact: deps.contact,
    reminders: deps.reminders,
    timeZone: deps.timeZone,
    delivers: deps.delivers,
    now: deps.now ?? (() => new Date()),
    warn: deps.warn,
  });
  let timer: NodeJS.Timeout | undefined;
  return {
    runEvent: service.runEvent,
    control: { pushDueReminders: service.pushDueReminders, idle: service.idle },
    register(app) {
      registerPushRoutes(app, { service });
      app.addHook("onReady", async () => {
        timer = setInterval(
          () => void service.pushDueReminders().catch((error: unknown) => deps.warn("the reminders push round failed", error)),
          REMINDER_ROUND_MS,
        );
        timer.unref();
      });
      app.addHook("onClose", async () => {
        clearInterval(timer);
        await service.idle();
      });
    },
  };
}
