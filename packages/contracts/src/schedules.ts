import { z } from "zod";
import { contentSourceSchema } from "./provenance.ts";

export const SCHEDULE_TITLE_MAX = 200;
export const SCHEDULE_PROMPT_MAX = 20_000;
export const SCHEDULE_RRULE_MAX = 2_000;

/** The 400/404 texts, written for people (the settings page shows them as they are). */
export const SCHEDULE_ERRORS = {
  titleRequired: "Give the schedule a title",
  titleTooLong: `The title must be at most ${SCHEDULE_TITLE_MAX} characters`,
  promptRequired: "Say what SAGE should do at each run",
  promptTooLong: `The instruction must be at most ${SCHEDULE_PROMPT_MAX} characters`,
  rruleRequired: "Say when the schedule runs (a recurrence rule)",
  rruleInvalid: "The recurrence could not be read. Use a rule such as DTSTART;TZID=Europe/Zurich:20261127T070000 and RRULE:FREQ=DAILY",
  rruleNeedsStart: "The recurrence needs a start date and time (DTSTART)",
  rruleTooOften: "A schedule can run at most once a minute",
  rruleNeverRuns: "This recurrence never runs again",
  timezoneRequired: "Choose a time zone",
  timezoneInvalid: (zone: string) => `"${zone}" is not a time zone SAGE knows. Use a name such as Europe/Zurich or America/New_York`,
  timezoneMismatch: (start: string, zone: string) => `The start time is in ${start} but the schedule's time zone is ${zone}; use the same zone in both`,
  conversationNotFound: "Conversation not found",
  scheduleNotFound: "Schedule not found",
  nothingToUpdate: "Nothing to update: send title, prompt, rrule, timezone, conversationId or paused",
  triggerInvalid: "Choose what sets the schedule off: set times, a mail arriving, an event coming up, or a web address being called",
  matchRequired: "Say which mails or events set it off: a word or phrase they contain",
  matchTooLong: "The words to match must be at most 200 characters",
  minutesInvalid: "Give the minutes before the event as a whole number from 1 to 10080 (a week)",
  triggerHasNoTimes: "This schedule runs when something happens, not at set times: make a new schedule to run it at set times",
  webhookPaused: "This schedule is paused: resume it to take calls to its address",
  idempotencyKeyInvalid: "The Idempotency-Key header must be 1 to 200 characters",
} as const;

/** What sets a schedule off (issue 53): its rule's times, a mail arriving, an event coming up, or its web address. */
export const SCHEDULE_TRIGGER_KINDS = ["time", "mail", "before-event", "webhook"] as const;
export type ScheduleTriggerKind = (typeof SCHEDULE_TRIGGER_KINDS)[number];
export const TRIGGER_MATCH_MAX = 200;
/** A week: the most minutes before an event a run may be set off. */
export const BEFORE_EVENT_MINUTES_MAX = 10_080;

const match = z
  .string({ error: SCHEDULE_ERRORS.matchRequired })
  .trim()
  .min(1, SCHEDULE_ERRORS.matchRequired)
  .max(TRIGGER_MATCH_MAX, SCHEDULE_ERRORS.matchTooLong);

/**
 * `time`: the rule's occurrences (rrule and timezone). `mail`: once per synced mail whose sender, subject or text
 * contains `match`. `before-event`: `minutes` before each event whose title contains `match`. `webhook`: once per
 * POST to the schedule's secret address (its `webhookUrl`, shown once, when it is made).
 */
export const scheduleTriggerSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("time") }),
    z.object({ kind: z.literal("mail"), match }),
    z.object({
      kind: z.literal("before-event"),
      minutes: z
        .number({ error: SCHEDULE_ERRORS.minutesInvalid })
        .int(SCHEDULE_ERRORS.minutesInvalid)
        .min(1, SCHEDULE_ERRORS.minutesInvalid)
        .max(BEFORE_EVENT_MINUTES_MAX, SCHEDULE_ERRORS.minutesInvalid),
      match,
    }),
    z.object({ kind: z.literal("webhook") }),
  ],
  { error: SCHEDULE_ERRORS.triggerInvalid },
);
export type ScheduleTrigger = z.infer<typeof scheduleTriggerSchema>;

/** How a run went. "waiting-approval": it reached a tool that changes the outside world and waits for Approve. */
export const SCHEDULE_RUN_STATUSES = ["running", "waiting-approval", "succeeded", "failed", "not-approved", "interrupted"] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];

/** What each status says to the user. */
export const SCHEDULE_RUN_STATUS_TEXTS: Record<ScheduleRunStatus, string> = {
  running: "Running",
  "waiting-approval": "Waiting for your approval",
  succeeded: "Done",
  failed: "Failed",
  "not-approved": "Stopped: a step was not approved",
  interrupted: "Interrupted by a restart",
};

const title = z
  .string({ error: SCHEDULE_ERRORS.titleRequired })
  .trim()
  .min(1, SCHEDULE_ERRORS.titleRequired)
  .max(SCHEDULE_TITLE_MAX, SCHEDULE_ERRORS.titleTooLong);
const prompt = z
  .string({ error: SCHEDULE_ERRORS.promptRequired })
  .trim()
  .min(1, SCHEDULE_ERRORS.promptRequired)
  .max(SCHEDULE_PROMPT_MAX, SCHEDULE_ERRORS.promptTooLong);
const rrule = z
  .string({ error: SCHEDULE_ERRORS.rruleRequired })
  .trim()
  .min(1, SCHEDULE_ERRORS.rruleRequired)
  .max(SCHEDULE_RRULE_MAX, SCHEDULE_ERRORS.rruleInvalid);
const timezone = z.string({ error: SCHEDULE_ERRORS.timezoneRequired }).trim().min(1, SCHEDULE_ERRORS.timezoneRequired).max(100);
const conversationId = z.number({ error: SCHEDULE_ERRORS.conversationNotFound }).int().positive();

/** POST /api/schedules: a rule and its zone for set times (no trigger, or `time`); neither for the other triggers. */
export const createScheduleRequestSchema = z
  .object({
    title,
    prompt,
    rrule: rrule.optional(),
    timezone: timezone.optional(),
    conversationId: conversationId.nullish(),
    trigger: scheduleTriggerSchema.optional(),
  })
  .superRefine((value, context) => {
    if (value.trigger && value.trigger.kind !== "time") return;
    if (value.rrule === undefined) context.addIssue({ code: "custom", path: ["rrule"], message: SCHEDULE_ERRORS.rruleRequired });
    else if (value.timezone === undefined) context.addIssue({ code: "custom", path: ["timezone"], message: SCHEDULE_ERRORS.timezoneRequired });
  });
export type CreateScheduleRequest = z.infer<typeof createScheduleRequestSchema>;

/** PATCH /api/schedules/{id}: any of the fields; `paused` pauses or resumes. */
export const updateScheduleRequestSchema = z
  .object({ title, prompt, rrule, timezone, conversationId: conversationId.nullable(), paused: z.boolean() })
  .partial()
  .refine((value) => Object.values(value).some((field) => field !== undefined), SCHEDULE_ERRORS.nothingToUpdate);
export type UpdateScheduleRequest = z.infer<typeof updateScheduleRequestSchema>;

export const scheduleSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  prompt: z.string(),
  rrule: z.string(),
  timezone: z.string(),
  /** Where the runs write; made at the first run when none was given. */
  conversationId: z.number().int().nullable(),
  paused: z.boolean(),
  /** The next occurrence (UTC ISO); null when paused or when the rule ends. */
  nextRunAt: z.string().nullable(),
  /** The next three occurrences, for the plain-words summary. */
  nextRuns: z.array(z.string()),
  /** The rule in plain words ("every weekday at 07:00 (Europe/Zurich)"). */
  summary: z.string(),
  lastRunAt: z.string().nullable(),
  lastStatus: z.enum(SCHEDULE_RUN_STATUSES).nullable(),
  /** "briefing" / "weekly-review": the built-in morning briefing or weekly review, which the server assembles (its prompt is only a description). */
  template: z.enum(["briefing", "weekly-review"]).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Its prompt came from a mail's or document's words (issue 47): each run reads it as that content. */
  derivedFrom: contentSourceSchema.optional(),
  /** What sets it off; `time` for a rule's occurrences. */
  trigger: scheduleTriggerSchema,
  /** A webhook schedule's secret address, answered once when it is made (only its hash is kept). */
  webhookUrl: z.string().optional(),
});
export type Schedule = z.infer<typeof scheduleSchema>;
export const scheduleListSchema = z.array(scheduleSchema);

/** POST /api/hooks/{secret}: the delivery is taken; `duplicate` when its Idempotency-Key was delivered before. */
export const webhookDeliverySchema = z.object({ accepted: z.literal(true), duplicate: z.boolean() });
export const webhookParamsSchema = z.object({ secret: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });

/** One run: the occurrence it was for (`dueAt`), when it ran, and the messages it wrote. */
export const scheduleRunSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int(),
  dueAt: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(SCHEDULE_RUN_STATUSES),
  /** The server was down at the occurrence and ran it when it came back. */
  late: z.boolean(),
  /** Run now, rather than an occurrence of the rule. */
  manual: z.boolean(),
  conversationId: z.number().int().nullable(),
  messageIds: z.array(z.number().int()),
  error: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;
export const scheduleRunListSchema = z.array(scheduleRunSchema);

export const BRIEFING_TOPICS_MAX = 5;
export const BRIEFING_TOPIC_MAX = 100;

/** The morning briefing's texts: its section headings, notes, and the 400s of its settings. */
export const BRIEFING_TEXTS = {
  title: "Morning briefing",
  prompt: "Morning briefing: today's meetings, reminders due, commitments due, mail that may need a reply, and news on my topics",
  meetings: "Today's meetings",
  reminders: "Reminders due",
  commitments: "Commitments due",
  mail: "Mail that may need a reply",
  news: "News",
  noCalendar: "No calendar is connected, so meetings are left out: connect one in Settings > Accounts.",
  noWebSearch: "News is left out: web search is not set up.",
  newsFailed: "News could not be fetched this time.",
  nothing: "Nothing needs you today.",
  noSource: "(no source)",
  more: (count: number) => `and ${count} more`,
  timeInvalid: "Give the time as HH:MM, such as 07:00",
  topicsTooMany: `Name at most ${BRIEFING_TOPICS_MAX} news topics`,
  topicInvalid: `A news topic must be 1 to ${BRIEFING_TOPIC_MAX} characters`,
} as const;

/** PUT /api/schedules/briefing: switch the briefing on or off, and when it runs, and its news topics. */
export const briefingSettingsSchema = z.object({
  enabled: z.boolean(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, BRIEFING_TEXTS.timeInvalid),
  days: z.enum(["daily", "weekdays"]),
  timezone,
  topics: z
    .array(z.string({ error: BRIEFING_TEXTS.topicInvalid }).trim().min(1, BRIEFING_TEXTS.topicInvalid).max(BRIEFING_TOPIC_MAX, BRIEFING_TEXTS.topicInvalid))
    .max(BRIEFING_TOPICS_MAX, BRIEFING_TEXTS.topicsTooMany),
});
export type BriefingSettings = z.infer<typeof briefingSettingsSchema>;

/** GET /api/schedules/briefing: the settings, and the schedule behind them once set up. */
export const briefingSchema = briefingSettingsSchema.extend({
  scheduleId: z.number().int().nullable(),
  conversationId: z.number().int().nullable(),
  nextRunAt: z.string().nullable(),
});
export type Briefing = z.infer<typeof briefingSchema>;

/** The weekly review's texts (issue 53): its section headings and notes. */
export const WEEKLY_REVIEW_TEXTS = {
  title: "Weekly review",
  prompt: "Weekly review: the meetings held this week, decisions and commitments made, what is still open, and next week's meetings that need preparation",
  held: "Meetings held this week",
  made: "Decisions and commitments made",
  open: "Still open",
  prepare: "Next week: meetings to prepare",
  noCalendar: "No calendar is connected, so meetings are left out: connect one in Settings > Accounts.",
  nothing: "A quiet week: nothing on file to review.",
  decision: "Decision",
  dayInvalid: "Choose a day of the week",
} as const;

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** PUT /api/schedules/weekly-review: switch the review on or off, and its day, time and zone (Friday 16:00 unless set). */
export const weeklyReviewSettingsSchema = z.object({
  enabled: z.boolean(),
  day: z.enum(WEEKDAYS, { error: WEEKLY_REVIEW_TEXTS.dayInvalid }),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, BRIEFING_TEXTS.timeInvalid),
  timezone,
});
export type WeeklyReviewSettings = z.infer<typeof weeklyReviewSettingsSchema>;

/** GET /api/schedules/weekly-review: the settings, and the schedule behind them once set up. */
export const weeklyReviewSchema = weeklyReviewSettingsSchema.extend({
  scheduleId: z.number().int().nullable(),
  conversationId: z.number().int().nullable(),
  nextRunAt: z.string().nullable(),
});
export type WeeklyReview = z.infer<typeof weeklyReviewSchema>;
