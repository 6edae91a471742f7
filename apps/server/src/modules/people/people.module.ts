import type { Kysely } from "kysely";
import type { Commitment } from "@sage/contracts/commitments";
import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { Database } from "../../store/schema.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import { lookupPersonTool } from "./lookup-person-tool.ts";
import { createPeopleRepo } from "./people.repo.ts";
import { registerPeopleRoutes } from "./people.routes.ts";
import { createPeopleService, type PeopleService } from "./people.service.ts";

export type { Person } from "@sage/contracts/people";
export { mailCitation, mailProvenance, normalizeText, shortDay } from "./mail-source.ts";
export { partiesOf, SENT_FOLDER, type Party } from "./mail-addresses.ts";
export type { MailHeader } from "./people.repo.ts";

const REFRESH_JOB = "people.refresh";
const PROFILE_JOB = "people.profile";

/** What dossiers, triage and the weekly review ask of the people pages. */
export type PeoplePort = Pick<PeopleService, "byAddresses" | "list" | "refresh" | "get" | "directory" | "ownAddresses">;
export type { DirectoryEntry } from "./people.service.ts";

export interface PeopleModule extends AppModule {
  port: PeoplePort;
  tools: AssistantTool[];
  /** Brings the user's people up to date now and writes any profile queued (tests). */
  control: { refresh(userId: number): Promise<void> };
}

/**
 * The people pages (issue 53, decision 096): built from contact cards, mail and meetings after each sync, each with a
 * profile the model writes from cited sources in the background; /api/people; the lookupPerson tool.
 */
export function createPeopleModule(deps: {
  db: Kysely<Database>;
  jobs: JobQueue;
  llm: LlmProvider | null;
  openCommitments(userId: number): Promise<Commitment[]>;
  itemText(userId: number, itemId: number, maxChars: number): Promise<string>;
  now?: () => Date;
  warn(message: string, error?: unknown): void;
}): PeopleModule & { synced(userId: number): void } {
  const now = deps.now ?? (() => new Date());
  const repo = createPeopleRepo(deps.db);
  /** Profiles queued and not yet written, so a page opened twice queues one. */
  const queued = new Set<number>();
  const service = createPeopleService({
    repo,
    llm: deps.llm,
    openCommitments: deps.openCommitments,
    itemText: deps.itemText,
    now,
    async queueProfile(userId, personId) {
      if (queued.has(personId)) return;
      queued.add(personId);
      await deps.jobs.enqueue({ kind: PROFILE_JOB, userId, payload: { personId } });
    },
  });
  deps.jobs.register<Record<string, never>>(REFRESH_JOB, async ({ job }) => service.refresh(job.userId), { onInterrupted: "resume" });
  deps.jobs.register<{ personId: number }>(
    PROFILE_JOB,
    async ({ job, payload }) => {
      queued.delete(payload.personId);
      try {
        await service.writeProfile(job.userId, payload.personId);
      } catch (error) {
        // A person merged away meanwhile, or the model unavailable: the next visit queues it again.
        deps.warn("a person's profile was not written", error);
      }
    },
    { onInterrupted: "resume" },
  );
  return {
    port: {
      byAddresses: service.byAddresses,
      list: service.list,
      refresh: service.refresh,
      get: service.get,
      directory: service.directory,
      ownAddresses: service.ownAddresses,
    },
    tools: [lookupPersonTool(service)],
    control: {
      async refresh(userId) {
        await service.refresh(userId);
        await deps.jobs.idle();
      },
    },
    /** A sync finished: the user's people are brought up to date in the background. */
    synced(userId) {
      void deps.jobs.enqueue({ kind: REFRESH_JOB, userId }).catch((error: unknown) => deps.warn("could not queue the people's refresh", error));
    },
    register(app) {
      registerPeopleRoutes(app, { service });
    },
  };
}
