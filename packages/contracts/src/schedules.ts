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
} as const;

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

/** POST /api/schedules */
export const createScheduleRequestSchema = z.object({ title, prompt, rrule, timezone, conversationId: conversationId.nullish() });
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
  /** "briefing": the built-in morning briefing, which the server assembles (its prompt is only a description). */
  template: z.enum(["briefing"]).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Its prompt came from a mail's or document's words (issue 47): each run reads it as that content. */
  derivedFrom: contentSourceSchema.optional(),
});
export type Schedule = z.infer<typeof scheduleSchema>;
export const scheduleListSchema = z.array(scheduleSchema);

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
