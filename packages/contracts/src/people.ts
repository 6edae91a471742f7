import { z } from "zod";
import { citedLineSchema } from "./cited-lines.ts";
import { commitmentSchema } from "./commitments.ts";

export const PERSON_NAME_MAX = 200;
export const PERSON_FIELD_MAX = 200;
export const PROFILE_LINES_MAX = 12;
export const PROFILE_LINE_MAX = 500;

/** The 400/404 texts of /api/people, shown as they are. */
export const PEOPLE_TEXTS = {
  notFound: "Person not found",
  otherNotFound: "The person to merge was not found",
  mergeSelf: "Choose another person to merge with",
  nothingToUpdate: "Nothing to update: send name, organisation, role, profile or hidden",
  nameInvalid: `The name must be 1 to ${PERSON_NAME_MAX} characters`,
  fieldInvalid: `Organisation and role must be at most ${PERSON_FIELD_MAX} characters`,
  profileInvalid: `The profile must be at most ${PROFILE_LINES_MAX} lines of at most ${PROFILE_LINE_MAX} characters`,
  queryInvalid: "The search must be at most 200 characters",
  /** A profile line the user wrote (a correction). */
  yourCorrection: "Your correction",
  noProfile: "Nothing on file about this person yet.",
  noModel: "SAGE writes profiles with a language model, and none is configured.",
} as const;

/** The next meeting with the person, from the synced calendars. */
export const personMeetingSchema = z.object({ eventId: z.number().int(), title: z.string(), start: z.string() });

/** GET /api/people/{id} (and each item of GET /api/people). */
export const personSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  addresses: z.array(z.string()),
  organisation: z.string().optional(),
  role: z.string().optional(),
  /** The last mail either way or meeting held, UTC ISO; null when none is on file. */
  lastContactAt: z.string().nullable(),
  /** Open commitments both ways: what the user owes them, and what they owe the user. */
  openCommitments: z.array(commitmentSchema),
  nextMeeting: personMeetingSchema.optional(),
  /** The short profile, every line citing its sources; the user's corrections win over what the model wrote. */
  profile: z.array(citedLineSchema),
  /** When the model last wrote the profile; null before the first time. */
  profileAt: z.string().nullable(),
  /** Fields the user corrected (name, organisation, role, profile): these stay as the user set them. */
  corrected: z.array(z.enum(["name", "organisation", "role", "profile"])),
  /** The contact card's groups ("Board"), which triage rules may name. */
  groups: z.array(z.string()),
  hidden: z.boolean(),
});
export type Person = z.infer<typeof personSchema>;
export const personListSchema = z.array(personSchema);

/** GET /api/people?q=: part of a name, address, organisation or role; `hidden=true` lists the hidden people instead. */
export const peopleQuerySchema = z.object({
  q: z.string().trim().max(200, PEOPLE_TEXTS.queryInvalid).optional(),
  hidden: z.enum(["true", "false"]).optional(),
});

/** POST /api/people/{id}/merge: the other person's addresses, mail and meetings become this one's. */
export const mergePeopleRequestSchema = z.object({ otherId: z.number({ error: PEOPLE_TEXTS.otherNotFound }).int().positive() });

const correctable = (max: number, message: string) => z.string().trim().min(1, message).max(max, message).nullable();

/**
 * PATCH /api/people/{id}: corrections, which win over the contact card, the mail and any later regeneration; null
 * takes a correction back. `profile` replaces the profile with the user's own lines; `hidden` hides or shows the person.
 */
export const updatePersonRequestSchema = z
  .object({
    name: correctable(PERSON_NAME_MAX, PEOPLE_TEXTS.nameInvalid),
    organisation: correctable(PERSON_FIELD_MAX, PEOPLE_TEXTS.fieldInvalid),
    role: correctable(PERSON_FIELD_MAX, PEOPLE_TEXTS.fieldInvalid),
    profile: z
      .array(z.string().trim().min(1, PEOPLE_TEXTS.profileInvalid).max(PROFILE_LINE_MAX, PEOPLE_TEXTS.profileInvalid), { error: PEOPLE_TEXTS.profileInvalid })
      .max(PROFILE_LINES_MAX, PEOPLE_TEXTS.profileInvalid)
      .nullable(),
    hidden: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), PEOPLE_TEXTS.nothingToUpdate);
export type UpdatePersonRequest = z.input<typeof updatePersonRequestSchema>;
