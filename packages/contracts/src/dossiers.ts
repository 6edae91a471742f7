import { z } from "zod";
import { citedLineSchema } from "./cited-lines.ts";

/** Meeting dossiers (issue 53, decision 097): what SAGE has on file about the people of an upcoming meeting. */
export const DOSSIER_MINUTES_MAX = 24 * 60;

export const DOSSIER_TEXTS = {
  /** The dossier of a meeting SAGE holds nothing about. */
  empty: "Nothing on file about these people",
  conversation: "Meetings",
  eventNotFound: "Event not found",
  noDossier: "No dossier has been prepared for this event yet",
  eventIdInvalid: "eventId must be the id of an event in your calendar",
  minutesInvalid: `minutesBefore must be a whole number of minutes from 1 to ${DOSSIER_MINUTES_MAX}`,
  calendarsInvalid: "calendars must be a list of calendar account ids",
  notesInvalid: "Type or dictate your notes (up to 20,000 characters)",
  /** The Today panel's button after a meeting. */
  addNotes: "Add notes",
  notesSaved: "Notes saved",
  /** The push (and channel) when the round has prepared a meeting's dossier. */
  ready: (title: string) => `Your dossier for ${title} is ready.`,
} as const;
export const EVENT_NOTES_MAX = 20_000;

/** GET /api/dossiers?eventId= */
export const dossierQuerySchema = z.object({
  eventId: z.coerce
    .number({ error: DOSSIER_TEXTS.eventIdInvalid })
    .int(DOSSIER_TEXTS.eventIdInvalid)
    .positive(DOSSIER_TEXTS.eventIdInvalid)
    .max(Number.MAX_SAFE_INTEGER, DOSSIER_TEXTS.eventIdInvalid),
});

/** POST /api/dossiers: prepare (again) now. */
export const prepareDossierSchema = z.object({
  eventId: z
    .number({ error: DOSSIER_TEXTS.eventIdInvalid })
    .int(DOSSIER_TEXTS.eventIdInvalid)
    .positive(DOSSIER_TEXTS.eventIdInvalid)
    .max(Number.MAX_SAFE_INTEGER, DOSSIER_TEXTS.eventIdInvalid),
});

export const dossierSchema = z.object({
  eventId: z.number().int(),
  preparedAt: z.string(),
  /** Every line cites its source; a line with nothing to cite is left out (an empty list: "Nothing on file about these people"). */
  lines: z.array(citedLineSchema),
  /** The "Meetings" conversation the dossier was delivered in. */
  conversationId: z.number().int(),
});
export type Dossier = z.infer<typeof dossierSchema>;

/** PUT /api/settings/dossiers: how long before a meeting it is prepared, and from which calendars (absent: all). */
export const dossierSettingsSchema = z.object({
  minutesBefore: z
    .number({ error: DOSSIER_TEXTS.minutesInvalid })
    .int(DOSSIER_TEXTS.minutesInvalid)
    .min(1, DOSSIER_TEXTS.minutesInvalid)
    .max(DOSSIER_MINUTES_MAX, DOSSIER_TEXTS.minutesInvalid),
  calendars: z
    .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), { error: DOSSIER_TEXTS.calendarsInvalid })
    .max(100, DOSSIER_TEXTS.calendarsInvalid)
    .optional(),
});
export type DossierSettings = z.infer<typeof dossierSettingsSchema>;

/** POST /api/dossiers/notes: "Add notes" after a meeting, filed as a note of the event (decision 099). */
export const eventNotesRequestSchema = z.object({
  eventId: z
    .number({ error: DOSSIER_TEXTS.eventIdInvalid })
    .int(DOSSIER_TEXTS.eventIdInvalid)
    .positive(DOSSIER_TEXTS.eventIdInvalid)
    .max(Number.MAX_SAFE_INTEGER, DOSSIER_TEXTS.eventIdInvalid),
  text: z
    .string({ error: DOSSIER_TEXTS.notesInvalid })
    .max(EVENT_NOTES_MAX, DOSSIER_TEXTS.notesInvalid)
    .refine((text) => text.trim().length > 0, DOSSIER_TEXTS.notesInvalid),
});
export type EventNotesRequest = z.infer<typeof eventNotesRequestSchema>;

/** The note filed: its knowledge base item (searchable, read by the commitments scan). */
export const eventNoteSchema = z.object({
  eventId: z.number().int(),
  fileId: z.number().int(),
  name: z.string(),
});
export type EventNote = z.infer<typeof eventNoteSchema>;
