import type { ContentSource } from "@sage/contracts/provenance";
import {
  BRIEFING_TEXTS,
  SCHEDULE_ERRORS,
  WEEKLY_REVIEW_TEXTS,
  type Briefing,
  type BriefingSettings,
  type CreateScheduleRequest,
  type Schedule,
  type ScheduleRun,
  type ScheduleTrigger,
  type UpdateScheduleRequest,
  type WeeklyReview,
  type WeeklyReviewSettings,
} from "@sage/contracts/schedules";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { checkTimezone, describeRecurrence, nextOccurrences, parseRecurrence, toWallClock } from "./recurrence.ts";
import type { RunRow, ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";
import { briefingOptions } from "./scheduled-run.ts";
import { hashWebhookSecret, newWebhookSecret, webhookPath } from "./schedule-triggers.ts";
import type { Scheduler } from "./scheduler.ts";

export const toRun = (row: RunRow): ScheduleRun => ({
  id: row.id,
  scheduleId: row.scheduleId,
  dueAt: row.dueAt,
  startedAt: row.startedAt,
  finishedAt: row.finishedAt,
  status: row.status,
  late: row.late === 1,
  manual: row.manual === 1,
  conversationId: row.conversationId,
  messageIds: JSON.parse(row.messageIds) as number[],
  error: row.error,
});

/** A checked rule's next occurrence after `now`; a rule that never runs again is a 400. */
function firstRun(rrule: string, timezone: string, now: Date): string {
  const next = nextOccurrences(parseRecurrence(rrule, timezone), now, 1)[0];
  if (!next) throw badRequest(SCHEDULE_ERRORS.rruleNeverRuns, "invalid_rrule");
  return next.toISOString();
}

/** The briefing's rule: at `time` in the zone, every day or every weekday, counting from today. */
export function briefingRule(settings: Pick<BriefingSettings, "time" | "days" | "timezone">, now: Date): string {
  const day = toWallClock(now, settings.timezone).toISOString().slice(0, 10).replaceAll("-", "");
  const rule = settings.days === "daily" ? "RRULE:FREQ=DAILY" : "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
  return `DTSTART;TZID=${settings.timezone}:${day}T${settings.time.replace(":", "")}00\n${rule}`;
}

/** The weekly review's rule: at `time` on `day` every week, in the zone. */
export function weeklyReviewRule(settings: Pick<WeeklyReviewSettings, "time" | "day" | "timezone">, now: Date): string {
  const day = toWallClock(now, settings.timezone).toISOString().slice(0, 10).replaceAll("-", "");
  return `DTSTART;TZID=${settings.timezone}:${day}T${settings.time.replace(":", "")}00\nRRULE:FREQ=WEEKLY;BYDAY=${settings.day.slice(0, 2).toUpperCase()}`;
}

/** The weekly review's settings kept in the schedule's options (Friday 16:00 unless set). */
export function weeklyReviewOptions(row: Pick<ScheduleRow, "options">): Pick<WeeklyReviewSettings, "day" | "time"> {
  try {
    const options = JSON.parse(row.options) as Partial<WeeklyReviewSettings>;
    return { day: options.day ?? "friday", time: options.time ?? "16:00" };
  } catch {
    return { day: "friday", time: "16:00" };
  }
}

/** What sets a schedule off, from its row. */
export function triggerOf(row: Pick<ScheduleRow, "triggerKind" | "triggerMatch" | "triggerMinutes">): ScheduleTrigger {
  if (row.triggerKind === "mail") return { kind: "mail", match: row.triggerMatch ?? "" };
  if (row.triggerKind === "before-event") return { kind: "before-event", minutes: row.triggerMinutes ?? 30, match: row.triggerMatch ?? "" };
  if (row.triggerKind === "webhook") return { kind: "webhook" };
  return { kind: "time" };
}

/** A trigger in plain words, for the settings list. */
export function describeTrigger(trigger: ScheduleTrigger): string {
  if (trigger.kind === "mail") return `when a mail arrives that mentions "${trigger.match}"`;
  if (trigger.kind === "before-event") return `${trigger.minutes} minutes before each event whose title mentions "${trigger.match}"`;
  if (trigger.kind === "webhook") return "each time its web address is called";
  return "";
}

/** What a schedule says in plain words, with its next three runs (the settings list and scheduleTask's card). */
export function preview(rrule: string, timezone: string, now: Date, paused = false) {
  const recurrence = parseRecurrence(rrule, timezone);
  return { summary: describeRecurrence(recurrence), nextRuns: paused ? [] : nextOccurrences(recurrence, now, 3).map((date) => date.toISOString()) };
}

export function createSchedulesService(deps: {
  repo: SchedulesRepo;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  scheduler: Pick<Scheduler, "runNow" | "changed">;
  now: () => Date;
}) {
  const { repo, now } = deps;

  // A rule's words and next runs, kept for the current minute (occurrences fall on whole minutes): the list of 200
  // schedules cost 70 ms of rule walking per request, and a page that watches its runs asks every few seconds.
  const previews = new Map<string, { summary: string; nextRuns: string[] }>();
  let previewsMinute = -1;
  function previewOf(row: ScheduleRow, paused: boolean) {
    const minute = Math.floor(now().getTime() / 60_000);
    if (minute !== previewsMinute) {
      previews.clear();
      previewsMinute = minute;
    }
    const key = `${paused}\n${row.timezone}\n${row.rrule}`;
    let shown = previews.get(key);
    if (!shown) {
      try {
        shown = preview(row.rrule, row.timezone, new Date(minute * 60_000), paused);
      } catch {
        shown = { summary: row.rrule, nextRuns: [] };
      }
      previews.set(key, shown);
    }
    return shown;
  }

  function toSchedule(row: ScheduleRow, last: RunRow | undefined): Schedule {
    const paused = row.paused === 1;
    const trigger = triggerOf(row);
    const shown = trigger.kind === "time" ? previewOf(row, paused) : { summary: describeTrigger(trigger), nextRuns: [] };
    return {
      id: row.id,
      title: row.title,
      prompt: row.prompt,
      rrule: row.rrule,
      timezone: row.timezone,
      conversationId: row.conversationId,
      paused,
      nextRunAt: paused ? null : row.nextRunAt,
      nextRuns: shown.nextRuns,
      summary: shown.summary,
      lastRunAt: last?.startedAt ?? null,
      lastStatus: last?.status ?? null,
      template: row.template === "briefing" || row.template === "weekly-review" ? row.template : null,
      trigger,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...(row.derivedFrom ? { derivedFrom: JSON.parse(row.derivedFrom) as ContentSource } : {}),
    };
  }

  async function owned(userId: number, id: number): Promise<ScheduleRow> {
    const row = await repo.find(userId, id);
    if (!row) throw notFound(SCHEDULE_ERRORS.scheduleNotFound, "schedule_not_found");
    return row;
  }

  async function checkConversation(userId: number, conversationId: number | null | undefined) {
    if (conversationId && !(await deps.conversations.ownsConversation(userId, conversationId)))
      throw notFound(SCHEDULE_ERRORS.conversationNotFound, "conversation_not_found");
  }

  async function one(userId: number, row: ScheduleRow) {
    return toSchedule(row, (await repo.lastRuns(userId)).get(row.id));
  }

  function toBriefing(row: ScheduleRow | undefined, fallbackZone: string): Briefing {
    if (!row)
      return { enabled: false, time: "07:00", days: "weekdays", timezone: fallbackZone, topics: [], scheduleId: null, conversationId: null, nextRunAt: null };
    const options = briefingOptions(row);
    return {
      enabled: row.paused === 0,
      time: options.time,
      days: options.days,
      timezone: row.timezone,
      topics: options.topics,
      scheduleId: row.id,
      conversationId: row.conversationId,
      nextRunAt: row.paused === 0 ? row.nextRunAt : null,
    };
  }

  function toWeeklyReview(row: ScheduleRow | undefined, fallbackZone: string): WeeklyReview {
    if (!row) return { enabled: false, day: "friday", time: "16:00", timezone: fallbackZone, scheduleId: null, conversationId: null, nextRunAt: null };
    return {
      enabled: row.paused === 0,
      ...weeklyReviewOptions(row),
      timezone: row.timezone,
      scheduleId: row.id,
      conversationId: row.conversationId,
      nextRunAt: row.paused === 0 ? row.nextRunAt : null,
    };
  }

  return {
    /** The morning briefing's settings; off, at 07:00 on weekdays in `fallbackZone`, until first saved. */
    briefing: async (userId: number, fallbackZone: string): Promise<Briefing> => toBriefing(await repo.briefing(userId), fallbackZone),

    /** Switches the briefing on or off and sets when it runs and its topics; the one schedule behind it is made once. */
    async setBriefing(userId: number, settings: BriefingSettings): Promise<Briefing> {
      checkTimezone(settings.timezone);
      const rrule = briefingRule(settings, now());
      const nextRunAt = firstRun(rrule, settings.timezone, now());
      const options = JSON.stringify({ time: settings.time, days: settings.days, topics: settings.topics });
      const at = now().toISOString();
      const current = await repo.briefing(userId);
      const row = current
        ? await repo.update(userId, current.id, { rrule, timezone: settings.timezone, options, paused: settings.enabled ? 0 : 1, nextRunAt, updatedAt: at })
        : await repo.insert({
            userId,
            title: BRIEFING_TEXTS.title,
            prompt: BRIEFING_TEXTS.prompt,
            rrule,
            timezone: settings.timezone,
            conversationId: null,
            nextRunAt,
            template: "briefing",
            options,
            paused: settings.enabled ? 0 : 1,
            createdAt: at,
            updatedAt: at,
          });
      deps.scheduler.changed();
      return toBriefing(row, settings.timezone);
    },

    /** The weekly review's settings; off, Friday 16:00 in `fallbackZone`, until first saved. */
    weeklyReview: async (userId: number, fallbackZone: string): Promise<WeeklyReview> =>
      toWeeklyReview(await repo.briefing(userId, "weekly-review"), fallbackZone),

    /** Switches the weekly review on or off and sets its day and time; the one schedule behind it is made once. */
    async setWeeklyReview(userId: number, settings: WeeklyReviewSettings): Promise<WeeklyReview> {
      checkTimezone(settings.timezone);
      const rrule = weeklyReviewRule(settings, now());
      const nextRunAt = firstRun(rrule, settings.timezone, now());
      const options = JSON.stringify({ day: settings.day, time: settings.time });
      const at = now().toISOString();
      const current = await repo.briefing(userId, "weekly-review");
      const row = current
        ? await repo.update(userId, current.id, { rrule, timezone: settings.timezone, options, paused: settings.enabled ? 0 : 1, nextRunAt, updatedAt: at })
        : await repo.insert({
            userId,
            title: WEEKLY_REVIEW_TEXTS.title,
            prompt: WEEKLY_REVIEW_TEXTS.prompt,
            rrule,
            timezone: settings.timezone,
            conversationId: null,
            nextRunAt,
            template: "weekly-review",
            options,
            paused: settings.enabled ? 0 : 1,
            createdAt: at,
            updatedAt: at,
          });
      deps.scheduler.changed();
      return toWeeklyReview(row, settings.timezone);
    },

    async list(userId: number): Promise<Schedule[]> {
      const [rows, last] = await Promise.all([repo.list(userId), repo.lastRuns(userId)]);
      return rows.map((row) => toSchedule(row, last.get(row.id)));
    },

    /** `origin.derivedFrom`: the mail or document the prompt's words came from (scheduleTask after a red card). */
    async create(userId: number, input: CreateScheduleRequest, origin: { derivedFrom?: ContentSource } = {}): Promise<Schedule> {
      const trigger = input.trigger ?? { kind: "time" };
      const timed = trigger.kind === "time";
      if (!timed && input.timezone !== undefined) checkTimezone(input.timezone);
      // The contract asks a rule and a zone of set times; other triggers have neither and no next run.
      const nextRunAt = timed ? firstRun(input.rrule!, input.timezone!, now()) : null;
      await checkConversation(userId, input.conversationId);
      const secret = trigger.kind === "webhook" ? newWebhookSecret() : undefined;
      const at = now().toISOString();
      const row = await repo.insert({
        userId,
        title: input.title,
        prompt: input.prompt,
        rrule: timed ? input.rrule! : "",
        timezone: input.timezone ?? "UTC",
        conversationId: input.conversationId ?? null,
        nextRunAt,
        createdAt: at,
        updatedAt: at,
        ...(origin.derivedFrom ? { derivedFrom: JSON.stringify(origin.derivedFrom) } : {}),
        triggerKind: trigger.kind,
        ...(trigger.kind === "mail" || trigger.kind === "before-event" ? { triggerMatch: trigger.match } : {}),
        ...(trigger.kind === "before-event" ? { triggerMinutes: trigger.minutes } : {}),
        // A mail trigger is set off by mail that arrives after it is made, not by the mail already synced.
        ...(trigger.kind === "mail" ? { triggerAfterId: await repo.lastMailId(userId) } : {}),
        ...(secret ? { webhookSecretHash: hashWebhookSecret(secret) } : {}),
      });
      if (timed) deps.scheduler.changed();
      return { ...toSchedule(row, undefined), ...(secret ? { webhookUrl: webhookPath(secret) } : {}) };
    },

    /** A changed rule, zone or a resume starts counting from now: occurrences missed while paused do not run. */
    async update(userId: number, id: number, input: UpdateScheduleRequest): Promise<Schedule> {
      const current = await owned(userId, id);
      const timed = current.triggerKind === "time";
      if (!timed && (input.rrule !== undefined || input.timezone !== undefined)) throw badRequest(SCHEDULE_ERRORS.triggerHasNoTimes, "trigger_has_no_times");
      const rrule = input.rrule ?? current.rrule;
      const timezone = input.timezone ?? current.timezone;
      const paused = input.paused ?? current.paused === 1;
      const timing = timed && (input.rrule !== undefined || input.timezone !== undefined || (input.paused === false && current.paused === 1));
      const nextRunAt = timing ? firstRun(rrule, timezone, now()) : current.nextRunAt;
      await checkConversation(userId, input.conversationId);
      const row = await repo.update(userId, id, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
        ...(input.conversationId !== undefined ? { conversationId: input.conversationId } : {}),
        rrule,
        timezone,
        paused: paused ? 1 : 0,
        nextRunAt,
        updatedAt: now().toISOString(),
      });
      if (!row) throw notFound(SCHEDULE_ERRORS.scheduleNotFound, "schedule_not_found");
      deps.scheduler.changed();
      return one(userId, row);
    },

    async remove(userId: number, id: number) {
      if (!(await repo.remove(userId, id))) throw notFound(SCHEDULE_ERRORS.scheduleNotFound, "schedule_not_found");
      deps.scheduler.changed();
    },

    /** Run now: the run starts at once and is answered as it starts (its history entry shows how it goes). */
    async runNow(userId: number, id: number): Promise<ScheduleRun> {
      const row = await owned(userId, id);
      const runId = await deps.scheduler.runNow(row);
      const run = (await repo.runs(userId, id, 20)).find((item) => item.id === runId)!;
      return toRun(run);
    },

    async runs(userId: number, id: number): Promise<ScheduleRun[]> {
      await owned(userId, id);
      return (await repo.runs(userId, id)).map(toRun);
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
