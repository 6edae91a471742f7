import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { Database } from "../../store/schema.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { RemindersPort } from "../reminders/reminders.module.ts";
import type { DocumentSearchPort } from "../retrieval/retrieval.module.ts";
import { BACKLOG_DAYS, extractCommitments } from "./commitment-extractor.ts";
import { createCommitmentsRepo } from "./commitments.repo.ts";
import { registerCommitmentRoutes } from "./commitments.routes.ts";
import { commitmentLine, createCommitmentsService, toCommitment } from "./commitments.service.ts";
import { commitmentCitation, listCommitmentsTool } from "./list-commitments-tool.ts";

export { commitmentLine, commitmentCitation };
export type { Commitment } from "@sage/contracts/commitments";

const EXTRACT_JOB = "commitments.extract";
/** How often the ledger looks for new items to read. */
const SWEEP_MS = 5 * 60_000;

/** What the morning briefing reads: the user's open commitments due by a day (overdue included), kept ones only. */
export interface CommitmentsPort {
  dueBy(userId: number, day: string): Promise<ReturnType<typeof toCommitment>[]>;
  /** Every open commitment of the user (the people pages and dossiers pick those with one person). */
  open(userId: number): Promise<ReturnType<typeof toCommitment>[]>;
}

export interface CommitmentsModule extends AppModule {
  tools: AssistantTool[];
  port: CommitmentsPort;
  /** Reads the user's new items now and settles when done (tests). */
  control: { extractNow(userId: number): Promise<void> };
}

/**
 * The commitments ledger (decision 041): a background job reads each new item (synced mail, notes, documents) and
 * each of the user's messages once, with the model's structured output; /api/commitments lists and changes them;
 * listCommitments answers "what do I owe whom this week?". With no model, nothing is read and the list says so.
 */
export function createCommitmentsModule(deps: {
  db: Kysely<Database>;
  jobs: JobQueue;
  llm: LlmProvider | null;
  search: DocumentSearchPort;
  reminders: RemindersPort;
  /** The people the user writes to and their own addresses (mail accounts): a mail from anyone else needs Keep. */
  people?: (userId: number) => Promise<{ address: string }[]>;
  now?: () => Date;
  warn(message: string, error?: unknown): void;
}): CommitmentsModule {
  const now = deps.now ?? (() => new Date());
  const repo = createCommitmentsRepo(deps.db);
  const { llm } = deps;
  const isRunning = async (userId: number) => {
    const last = await deps.jobs.latestOfKind(userId, EXTRACT_JOB);
    return last !== undefined && (last.status === "queued" || last.status === "processing");
  };
  const service = createCommitmentsService({
    repo,
    reminders: deps.reminders,
    modelAvailable: llm !== null,
    now,
    running: isRunning,
    scan: async (userId) => {
      if (!(await isRunning(userId))) await deps.jobs.enqueue({ kind: EXTRACT_JOB, userId });
    },
  });

  if (llm) {
    deps.jobs.register<Record<string, never>>(
      EXTRACT_JOB,
      async ({ job }) => {
        const outcome = await extractCommitments({
          repo,
          llm,
          search: deps.search,
          now,
          userId: job.userId,
          people: deps.people ?? (async () => []),
          warn: deps.warn,
        });
        if (outcome.more && outcome.read > 0) await deps.jobs.enqueue({ kind: EXTRACT_JOB, userId: job.userId });
      },
      // Each source is marked read once read: a resumed job reads only what is left.
      { onInterrupted: "resume" },
    );
  }

  const hasNew = async (userId: number) => {
    const since = new Date(now().getTime() - BACKLOG_DAYS * 86_400_000).toISOString();
    return (await repo.newItems(userId, since, 1)).length > 0 || (await repo.newMessages(userId, since, 1)).length > 0;
  };

  async function sweep() {
    if (!llm) return;
    for (const userId of await repo.userIds()) {
      if (!(await isRunning(userId)) && (await hasNew(userId))) await deps.jobs.enqueue({ kind: EXTRACT_JOB, userId });
    }
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    tools: [listCommitmentsTool({ repo, now })],
    port: {
      // Only the user's own: a stranger's mail's line waits for Keep before the briefing or a page uses it.
      dueBy: async (userId, day) => (await repo.list(userId, { status: "open", dueBy: day, keptOnly: true })).map(toCommitment),
      open: async (userId) => (await repo.list(userId, { status: "open", keptOnly: true })).map(toCommitment),
    },
    control: {
      async extractNow(userId) {
        if (!llm) return;
        // A round that stops early (a rate limit) leaves items new: a few rounds at most, never a spin.
        for (let round = 0; round < 10 && (await hasNew(userId)); round++) {
          const job = await deps.jobs.enqueue({ kind: EXTRACT_JOB, userId });
          const done = await deps.jobs.waitFor(job.id);
          if (done.status === "failed") return;
          await deps.jobs.idle();
        }
      },
    },
    register(app) {
      registerCommitmentRoutes(app, { service });
      app.addHook("onReady", async () => {
        timer = setInterval(() => void sweep().catch((error: unknown) => deps.warn("the commitments round failed", error)), SWEEP_MS);
        timer.unref();
      });
      app.addHook("onClose", async () => clearInterval(timer));
    },
  };
}
