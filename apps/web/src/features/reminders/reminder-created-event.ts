/**
 * Spec 4: after the assistant creates a reminder, a window event of this name carries it
 * (`new CustomEvent(REMINDER_CREATED_EVENT, { detail: reminder })`).
 */
export const REMINDER_CREATED_EVENT = "reminderCreated";
