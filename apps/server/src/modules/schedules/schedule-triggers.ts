import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ContentSource } from "@sage/contracts/provenance";
import { SCHEDULE_ERRORS } from "@sage/contracts/schedules";
import { badRequest, conflict, notFound } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { SCHEDULED_RUN_JOB, scheduledRunKey, type ScheduledRunPayload } from "./scheduled-run.ts";
import type { ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";

/** What of a mail or a webhook body a run reads (the model can read a whole thread with readThread). */
export const TRIGGER_TEXT_MAX = 20_000;
/** Synced mails a mail trigger looks at per query. */
const MAIL_PAGE = 200;
const IDEMPOTENCY_KEY_MAX = 200;
/** Mail dated this long before the schedule was made is old mail (a mailbox connected later syncs its past). */
const OLD_MAIL_MS = 60 * 60_000;

/** A webhook's secret: 256 random bits, in the URL's alphabet; only its SHA-256 is kept. */
export const newWebhookSecret = () => randomBytes(32).toString("base64url");
export const hashWebhookSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
export const webhookPath = (secret: string) => `/api/hooks/${secret}`;

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
/** How a card names the mail, as searchMail's do: "the mail from Anna Berg <anna@example.com> of 14 May". */
const mailTitle = (mail: { from: string; date: string | null }) =>
  `the mail from ${mail.from || "an unknown sender"}${mail.date ? ` of ${DAY.format(new Date(mail.date))}` : ""}`;

const contains = (text: string, words: string) => text.toLocaleLowerCase().includes(words.trim().toLocaleLowerCase());

/**
 * Schedules set off by something happening (issue 53, decision 105). Each thing (a synced mail, an event's
 * occurrence, a webhook delivery) is claimed once with its run in one transaction, then queued as a `schedules.run`
 * job like a timed occurrence, so it runs once under the same rules; what set it off goes with the run as untrusted
 * content (the job's payload), never as the user's words.
 */
export function createScheduleTriggers(deps: {
  repo: SchedulesRepo;
  jobs: Pick<JobQueue, "enqueueOnce">;
  now: () => Date;
  /** A synced mail's text (its knowledge item), up to maxChars; empty while it is not indexed yet. */
  mailText?: (userId: number, itemId: number, maxChars: number) => Promise<string>;
  log(message: string, error?: unknown): void;
}) {
  const { repo, now } = deps;
  /** One look at a user's new mail at a time (two accounts may finish syncing together). */
  const looking = new Map<number, Promise<void>>();

  /** Claims the thing and queues its run: false when it set the schedule off before. */
  async function fire(schedule: ScheduleRow, eventKey: string, trigger: { source: ContentSource; text: string }): Promise<boolean> {
    const claimed = await repo.claimEvent(schedule, eventKey, now());
    if (!claimed) return false;
    const payload: ScheduledRunPayload = { scheduleId: schedule.id, dueAt: claimed.dueAt, late: false, manual: false, trigger };
    await deps.jobs.enqueueOnce({ kind: SCHEDULED_RUN_JOB, userId: schedule.userId, payload, uniqueKey: scheduledRunKey(schedule.id, claimed.dueAt) });
    return true;
  }

  async function lookAtMail(userId: number) {
    for (const schedule of await repo.triggered("mail", userId)) {
      let after = schedule.triggerAfterId ?? 0;
      for (;;) {
        const mails = await repo.mailAfter(userId, after, MAIL_PAGE);
        if (mails.length === 0) break;
        const oldBefore = new Date(Date.parse(schedule.createdAt) - OLD_MAIL_MS).toISOString();
        for (const mail of mails) {
          if (mail.date !== null && mail.date < oldBefore) continue;
          const body = mail.itemId !== null && deps.mailText ? await deps.mailText(userId, mail.itemId, TRIGGER_TEXT_MAX).catch(() => "") : "";
          const text = `From: ${mail.fromAddress}\nTo: ${mail.toAddress}\nSubject: ${mail.subject}\n\n${body}`.slice(0, TRIGGER_TEXT_MAX);
          if (!contains(text, schedule.triggerMatch ?? "")) continue;
          const source: ContentSource = {
            title: mailTitle({ from: mail.fromAddress, date: mail.date }),
            messageId: mail.id,
            ...(mail.itemId !== null ? { fileId: mail.itemId } : {}),
          };
          await fire(schedule, `mail:${mail.id}`, { source, text });
        }
        after = mails.at(-1)!.id;
        await repo.update(userId, schedule.id, { triggerAfterId: after });
      }
    }
  }

  return {
    /** Settles once every look at new mail that began has finished (tests). */
    async idle() {
      while (looking.size > 0) await Promise.all([...looking.values()]);
    },

    /** A mail account of the user finished syncing: each new mail matching a mail trigger sets it off once. */
    mailSynced(userId: number): Promise<void> {
      const previous = looking.get(userId) ?? Promise.resolve();
      const next = previous
        .then(() => lookAtMail(userId))
        .catch((error: unknown) => deps.log("a mail trigger could not look at new mail", error))
        .finally(() => {
          if (looking.get(userId) === next) looking.delete(userId);
        });
      looking.set(userId, next);
      return next;
    },

    /** Each event whose title matches a before-event trigger sets it off once, when it is that many minutes away. */
    async beforeEvents(): Promise<void> {
      const at = now();
      for (const schedule of await repo.triggered("before-event")) {
        const until = new Date(at.getTime() + (schedule.triggerMinutes ?? 30) * 60_000).toISOString();
        for (const event of await repo.eventsStarting(schedule.userId, at.toISOString(), until)) {
          if (!contains(event.title, schedule.triggerMatch ?? "")) continue;
          const attendees = (JSON.parse(event.attendees) as string[]).join(", ");
          const text = [`Event: ${event.title}`, `Starts: ${event.startAt}`, `Ends: ${event.endAt}`, event.location && `Where: ${event.location}`]
            .concat(attendees ? [`Attendees: ${attendees}`] : [], event.description ? ["", event.description] : [])
            .filter((line) => line !== "")
            .join("\n")
            .slice(0, TRIGGER_TEXT_MAX);
          await fire(schedule, `event:${event.uid}@${event.startAt}`, { source: { title: `the invitation "${event.title}"` }, text });
        }
      }
    },

    /**
     * A POST to a webhook schedule's secret address: 404 for a secret that is no schedule's (compared as hashes, in
     * constant time); the same Idempotency-Key twice is one run.
     */
    async deliver(secret: string, idempotencyKey: string | undefined, body: string): Promise<{ accepted: true; duplicate: boolean }> {
      const hash = hashWebhookSecret(secret);
      const schedule = await repo.byWebhook(hash);
      if (!schedule || !timingSafeEqual(Buffer.from(schedule.webhookSecretHash, "hex"), Buffer.from(hash, "hex"))) throw notFound();
      if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX))
        throw badRequest(SCHEDULE_ERRORS.idempotencyKeyInvalid, "invalid_idempotency_key");
      if (schedule.paused === 1) throw conflict(SCHEDULE_ERRORS.webhookPaused, "schedule_paused");
      const key = `webhook:${idempotencyKey !== undefined ? `key:${idempotencyKey}` : randomUUID()}`;
      const fired = await fire(schedule, key, { source: { title: `the web call to "${schedule.title}"` }, text: body.slice(0, TRIGGER_TEXT_MAX) });
      return { accepted: true, duplicate: !fired };
    },
  };
}

export type ScheduleTriggers = ReturnType<typeof createScheduleTriggers>;
