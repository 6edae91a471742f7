import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { Database } from "../../store/schema.ts";
import type { InboxPort } from "../accounts/accounts.module.ts";
import type { PeoplePort } from "../people/people.module.ts";
import { createTriageRepo } from "./triage.repo.ts";
import { registerTriageRoutes } from "./triage.routes.ts";
import { createTriageService, type TriageService } from "./triage.service.ts";

const ROUND_JOB = "triage.round";

export interface TriageModule extends AppModule {
  port: Pick<TriageService, "list" | "waiting">;
  /** Sorts the user's new mail now, drafts included, and waits for it (tests). */
  control: { round(userId: number): Promise<number> };
  /** A mail sync finished: the user's new mail is sorted in the background. */
  synced(userId: number): void;
}

/** The triaged inbox (issue 53, decisions 095 and 098). */
export function createTriageModule(deps: {
  db: Kysely<Database>;
  jobs: JobQueue;
  llm: LlmProvider | null;
  people: PeoplePort;
  inbox: InboxPort;
  itemText(userId: number, itemId: number, maxChars: number): Promise<string>;
  timeZone(userId: number): Promise<string>;
  now?: () => Date;
  warn(message: string, error?: unknown): void;
}): TriageModule {
  const repo = createTriageRepo(deps.db);
  const service = createTriageService({ ...deps, repo, now: deps.now ?? (() => new Date()) });
  /** Rounds queued and not yet started, so ten syncs in a row queue one. */
  const queued = new Set<number>();
  deps.jobs.register<Record<string, never>>(
    ROUND_JOB,
    async ({ job }) => {
      queued.delete(job.userId);
      await service.round(job.userId);
    },
    { onInterrupted: "resume" },
  );
  const queueRound = async (userId: number) => {
    if (queued.has(userId)) return;
    queued.add(userId);
    await deps.jobs.enqueue({ kind: ROUND_JOB, userId }).catch((error: unknown) => {
      queued.delete(userId);
      deps.warn("could not queue sorting the inbox", error);
    });
  };
  return {
    port: { list: service.list, waiting: service.waiting },
    control: { round: (userId) => service.round(userId) },
    synced: (userId) => void queueRound(userId),
    register(app) {
      registerTriageRoutes(app, { service, queueRound });
    },
  };
}
