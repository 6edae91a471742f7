/**
 * The window event fired after the assistant creates a reminder; its detail is the created reminder as
 * the server answered it. The chat fires it, the reminder lists refetch on it.
 */
export const REMINDER_CREATED_EVENT = "reminderCreated";

export const reminderCreatedEvent = (reminder: unknown) => new CustomEvent(REMINDER_CREATED_EVENT, { detail: reminder });
