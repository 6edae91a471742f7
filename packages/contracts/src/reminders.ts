import { z } from "zod";
import { contentSourceSchema } from "./provenance.ts";

export const REMINDER_PRIORITIES = ["high", "medium", "low"] as const;
export const REMINDER_TYPES = ["task", "alert", "reminder"] as const;
/** 'unread' on creation and whenever the due date changes; 'read' once the user has seen it. */
export const REMINDER_STATUSES = ["unread", "read"] as const;

export type ReminderPriority = (typeof REMINDER_PRIORITIES)[number];
export type ReminderType = (typeof REMINDER_TYPES)[number];
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

export const REMINDER_TITLE_MAX = 200;
export const REMINDER_DESCRIPTION_MAX = 5000;

/** The server's 400/404 texts; the UI shows them as they are, so they are written for people. */
export const REMINDER_ERRORS = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be at most ${REMINDER_TITLE_MAX} characters`,
  descriptionInvalid: `Description must be text of at most ${REMINDER_DESCRIPTION_MAX} characters`,
  dueDateRequired: "Due date is required",
  dueDateInvalid: "Due date must be a date and time with a time zone offset (2025-03-05T09:00:00.000+01:00) or a date (2025-03-05)",
  priorityInvalid: "Priority must be high, medium or low",
  typeInvalid: "Type must be task, alert or reminder",
  statusInvalid: "Status must be unread or read",
  conversationIdInvalid: "conversationId must be a conversation id",
  conversationNotFound: "Conversation not found",
  reminderNotFound: "Reminder not found",
  nothingToUpdate: "Nothing to update: send title, description, dueDate, priority, type or status",
} as const;

/** null and absent mean the same for optional fields. */
const absentAsUndefined = (value: unknown) => (value === null ? undefined : value);

const titleSchema = z
  .string({ error: REMINDER_ERRORS.titleRequired })
  .trim()
  .min(1, REMINDER_ERRORS.titleRequired)
  .max(REMINDER_TITLE_MAX, REMINDER_ERRORS.titleTooLong);

const descriptionSchema = z.preprocess(
  absentAsUndefined,
  z.string({ error: REMINDER_ERRORS.descriptionInvalid }).max(REMINDER_DESCRIPTION_MAX, REMINDER_ERRORS.descriptionInvalid).optional(),
);

/**
 * An ISO date-time with an offset (the UI's form) or YYYY-MM-DD (the assistant's form: a whole day,
 * read in the user's own time zone by the client). A date-time is stored in UTC; a date stays a date.
 */
export const reminderDueDateSchema = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? REMINDER_ERRORS.dueDateRequired : REMINDER_ERRORS.dueDateInvalid) })
  .trim()
  .min(1, REMINDER_ERRORS.dueDateRequired)
  .pipe(z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: REMINDER_ERRORS.dueDateInvalid }))
  .transform((value) => (isDateOnly(value) ? value : new Date(value).toISOString()));

export function isDateOnly(dueDate: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(dueDate);
}

const prioritySchema = z.enum(REMINDER_PRIORITIES, { error: REMINDER_ERRORS.priorityInvalid });
const typeSchema = z.enum(REMINDER_TYPES, { error: REMINDER_ERRORS.typeInvalid });
const statusSchema = z.enum(REMINDER_STATUSES, { error: REMINDER_ERRORS.statusInvalid });

/** A conversation id as a number or a numeric string (the assistant tool injects it from the URL). */
const conversationIdSchema = z.preprocess(
  (value) => (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value),
  z
    .number({ error: REMINDER_ERRORS.conversationIdInvalid })
    .int(REMINDER_ERRORS.conversationIdInvalid)
    .positive(REMINDER_ERRORS.conversationIdInvalid)
    .max(Number.MAX_SAFE_INTEGER, REMINDER_ERRORS.conversationIdInvalid),
);

export const createReminderRequestSchema = z.object({
  title: titleSchema,
  description: descriptionSchema.transform((value) => value ?? ""),
  dueDate: z.preprocess(absentAsUndefined, reminderDueDateSchema),
  priority: z.preprocess(absentAsUndefined, prioritySchema.default("medium")),
  type: z.preprocess(absentAsUndefined, typeSchema.default("reminder")),
  /** Accepted because the clients send it, but a new reminder is always unread. */
  status: z.preprocess(absentAsUndefined, statusSchema.optional()),
  conversationId: z.preprocess(absentAsUndefined, conversationIdSchema.optional()),
});
export type CreateReminderRequest = z.input<typeof createReminderRequestSchema>;
export type CreateReminderInput = z.output<typeof createReminderRequestSchema>;

export const updateReminderRequestSchema = z
  .object({
    title: titleSchema.optional(),
    description: descriptionSchema,
    dueDate: z.preprocess(absentAsUndefined, reminderDueDateSchema.optional()),
    priority: z.preprocess(absentAsUndefined, prioritySchema.optional()),
    type: z.preprocess(absentAsUndefined, typeSchema.optional()),
    status: z.preprocess(absentAsUndefined, statusSchema.optional()),
    /** The user's Keep of a reminder made from someone else's text (issue 47): it becomes the user's own. */
    kept: z.preprocess(absentAsUndefined, z.literal(true, { error: "kept can only be true" }).optional()),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: REMINDER_ERRORS.nothingToUpdate });
export type UpdateReminderRequest = z.input<typeof updateReminderRequestSchema>;
export type UpdateReminderInput = z.output<typeof updateReminderRequestSchema>;

export const listRemindersQuerySchema = z.object({
  conversationId: z.preprocess((value) => (value === "" ? undefined : value), conversationIdSchema.optional()),
});

export const reminderSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** UTC ISO date-time, or YYYY-MM-DD for a whole-day reminder. */
  dueDate: z.string(),
  priority: z.enum(REMINDER_PRIORITIES),
  type: z.enum(REMINDER_TYPES),
  status: z.string(),
  conversationId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Made from a mail's or document's words (issue 47): shown as "From the mail from Bob of 3 Dec". Until the user
   * keeps it (`kept: false`), SAGE does not treat it as the user's: the briefing leaves it out.
   */
  derivedFrom: contentSourceSchema.optional(),
  kept: z.boolean().optional(),
});
export type Reminder = z.infer<typeof reminderSchema>;

export const reminderListSchema = z.array(reminderSchema);
