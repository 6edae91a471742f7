import { BEFORE_EVENT_MINUTES_MAX, SCHEDULE_ERRORS, TRIGGER_MATCH_MAX, type ScheduleTrigger } from "@sage/contracts/schedules";
import { AppError } from "../../http/app-error.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import { checkTimezone, toWallClock } from "./recurrence.ts";
import { describeTrigger, preview, type SchedulesService } from "./schedules.service.ts";

const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

export const SCHEDULE_TASK_TEXTS = {
  created: (summary: string) => `Scheduled: ${summary}.`,
  declined: "The user declined this schedule, so it was not created.",
  timedOut: "The user did not answer in time, so the schedule was not created.",
  timeInvalid: "Give the time as HH:MM on a 24-hour clock, such as 07:00",
  dayInvalid: "Give days as MO, TU, WE, TH, FR, SA or SU",
  /** The card's last line for a schedule set off by a mail or an event (decision 105). */
  eachOnce: "It runs once for each; what the mail or invitation says is read as the sender's words, and anything it would send out waits for your approval.",
} as const;

const pad = (value: number) => String(value).padStart(2, "0");

/** 2026-11-30T06:00:00Z in Europe/Zurich: "Mon, 30 Nov 2026, 07:00". */
export function formatRunTime(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(new Date(iso))
    .replace(" at ", ", ");
}

interface Prepared {
  title: string;
  prompt: string;
  rrule: string;
  timezone: string;
}

/** A schedule set off by a mail or an event (decision 105); web addresses are made in Settings, as their secret must not reach the model. */
interface PreparedTrigger {
  title: string;
  prompt: string;
  trigger: Extract<ScheduleTrigger, { kind: "mail" | "before-event" }>;
}

function toTrigger(args: Record<string, unknown>, title: string, prompt: string): PreparedTrigger {
  const match = typeof args.match === "string" ? args.match.trim() : "";
  if (!match) throw new AppError("validation_error", 400, SCHEDULE_ERRORS.matchRequired);
  if (match.length > TRIGGER_MATCH_MAX) throw new AppError("validation_error", 400, SCHEDULE_ERRORS.matchTooLong);
  if (args.when === "mail") return { title, prompt, trigger: { kind: "mail", match } };
  const minutes = args.minutesBefore;
  if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 1 || minutes > BEFORE_EVENT_MINUTES_MAX)
    throw new AppError("validation_error", 400, SCHEDULE_ERRORS.minutesInvalid);
  return { title, prompt, trigger: { kind: "before-event", minutes, match } };
}

/** The model's simple form (a time, days, a zone) as an RFC 5545 rule starting today, local to the zone. */
function toRule(args: Record<string, unknown>, now: Date, fallbackZone: string): Prepared | PreparedTrigger {
  const title = typeof args.title === "string" ? args.title.trim() : "";
  const prompt = typeof args.prompt === "string" ? args.prompt.trim() : "";
  if (!title) throw new AppError("validation_error", 400, SCHEDULE_ERRORS.titleRequired);
  if (!prompt) throw new AppError("validation_error", 400, SCHEDULE_ERRORS.promptRequired);
  if (args.when === "mail" || args.when === "before-event") return toTrigger(args, title, prompt);
  const timezone = typeof args.timezone === "string" && args.timezone.trim() ? args.timezone.trim() : fallbackZone;
  checkTimezone(timezone);
  const time = TIME.exec(typeof args.time === "string" ? args.time.trim() : "");
  if (!time) throw new AppError("validation_error", 400, SCHEDULE_TASK_TEXTS.timeInvalid);
  const days = Array.isArray(args.days) ? args.days.map((day) => String(day).trim().toUpperCase().slice(0, 2)) : [];
  if (days.some((day) => !(DAYS as readonly string[]).includes(day))) throw new AppError("validation_error", 400, SCHEDULE_TASK_TEXTS.dayInvalid);
  const today = toWallClock(now, timezone);
  const start = `${today.getUTCFullYear()}${pad(today.getUTCMonth() + 1)}${pad(today.getUTCDate())}T${pad(+time[1]!)}${time[2]}00`;
  const ordered = DAYS.filter((day) => days.includes(day));
  const rule = ordered.length === 0 || ordered.length === 7 ? "RRULE:FREQ=DAILY" : `RRULE:FREQ=WEEKLY;BYDAY=${ordered.join(",")}`;
  return { title, prompt, rrule: `DTSTART;TZID=${timezone}:${start}\n${rule}`, timezone };
}

/**
 * scheduleTask ("every weekday at 7 brief me on ..."): always asks first. Its card says the schedule in plain words
 * with the next three run times in the schedule's zone; on Approve the schedule is made, its runs written in a
 * conversation of their own (decision 036).
 */
export function scheduleTaskTool(deps: { service: Pick<SchedulesService, "create">; now: () => Date }): AssistantTool {
  const fallbackZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  return {
    name: "scheduleTask",
    description:
      "Schedule a prompt SAGE will run by itself at set times (e.g. 'every weekday at 7 brief me on the markets'), or each time a mail arrives " +
      "that mentions some words, or some minutes before each calendar event whose title mentions some words. The user must approve it. " +
      "Each run writes its answer in a conversation of its own.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string", description: "A short name, e.g. 'Morning market brief'" },
        prompt: { type: "string", description: "What SAGE should do at each run, written as the user's request" },
        time: { type: "string", description: "Time of day, HH:MM on a 24-hour clock, e.g. '07:00'" },
        days: {
          type: "array",
          items: { type: "string", enum: [...DAYS] },
          description: "Days of the week it runs (MO..SU); leave empty for every day",
        },
        timezone: { type: "string", description: "The user's IANA time zone, e.g. 'Europe/Zurich'; leave empty for the server's" },
        when: {
          type: "string",
          enum: ["time", "mail", "before-event"],
          description:
            "What sets it off: 'time' (the default: at `time` on `days`), 'mail' (each mail that mentions `match`), 'before-event' (`minutesBefore` minutes before each event whose title mentions `match`)",
        },
        match: { type: "string", description: "For 'mail' and 'before-event': the words to look for, e.g. 'invoice' or 'Board'" },
        minutesBefore: { type: "number", description: "For 'before-event': how many minutes before the event, e.g. 30" },
      },
      required: ["title", "prompt"],
    },
    readOnly: false,
    askFirst: true,
    notApprovedTexts: { declined: SCHEDULE_TASK_TEXTS.declined, timedOut: SCHEDULE_TASK_TEXTS.timedOut },
    async prepare(args) {
      try {
        const prepared = toRule(args, deps.now(), fallbackZone);
        if ("rrule" in prepared) preview(prepared.rrule, prepared.timezone, deps.now());
        return { args: { ...prepared } };
      } catch (error) {
        if (error instanceof AppError) return { refusal: { success: false, error: error.message } };
        throw error;
      }
    },
    describeCall(args) {
      if ("trigger" in args) {
        const { title, prompt, trigger } = args as unknown as PreparedTrigger;
        return [`${title}: ${describeTrigger(trigger)}`, `SAGE will ask: "${prompt}"`, SCHEDULE_TASK_TEXTS.eachOnce];
      }
      const { rrule, timezone, title, prompt } = args as unknown as Prepared;
      const shown = preview(rrule, timezone, deps.now());
      return [`${title}: ${shown.summary}`, `SAGE will ask: "${prompt}"`, `Next runs: ${shown.nextRuns.map((iso) => formatRunTime(iso, timezone)).join("; ")}`];
    },
    async run(args, context) {
      const prepared = args as unknown as Prepared | PreparedTrigger;
      try {
        // A prompt from a mail's words stays marked (issue 47): every run reads it as that mail, not as the user's.
        const origin = context.provenance?.prompt;
        const derivedFrom = origin?.from === "content" ? origin.source : undefined;
        const input =
          "trigger" in prepared
            ? { title: prepared.title, prompt: prepared.prompt, trigger: prepared.trigger }
            : { title: prepared.title, prompt: prepared.prompt, rrule: prepared.rrule, timezone: prepared.timezone };
        const schedule = await deps.service.create(context.userId, input, derivedFrom ? { derivedFrom } : {});
        return {
          result: {
            success: true,
            message: SCHEDULE_TASK_TEXTS.created(schedule.summary),
            schedule: { id: schedule.id, title: schedule.title, summary: schedule.summary, nextRuns: schedule.nextRuns },
          },
        };
      } catch (error) {
        if (error instanceof AppError) return { result: { success: false, error: error.message } };
        throw error;
      }
    },
  };
}
