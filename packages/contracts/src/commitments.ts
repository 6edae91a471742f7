import { z } from "zod";
import { contentSourceSchema } from "./provenance.ts";
import { reminderSchema } from "./reminders.ts";

/**
 * Which way a commitment runs, seen from the user (decision 041): "mine" is what the user owes (a promise the user
 * made, or a request made to the user); "owed-to-me" is what someone else owes the user (their promise, or the
 * user's request to them).
 */
export const COMMITMENT_DIRECTIONS = ["mine", "owed-to-me"] as const;
export type CommitmentDirection = (typeof COMMITMENT_DIRECTIONS)[number];

/** How it arose: someone promised ("I'll send the deck on Friday"), or someone was asked ("can you approve ...?"). */
export const COMMITMENT_KINDS = ["promise", "request"] as const;
export type CommitmentKind = (typeof COMMITMENT_KINDS)[number];

export const COMMITMENT_STATUSES = ["open", "done", "dismissed"] as const;
export type CommitmentStatus = (typeof COMMITMENT_STATUSES)[number];

export const COMMITMENT_TEXTS = {
  notFound: "Commitment not found",
  nothingToUpdate: "Nothing to update: send status, dueDate or kept",
  keptInvalid: "kept can only be true",
  statusInvalid: "Status must be open, done or dismissed",
  dueDateInvalid: "The due date must be a date such as 2026-12-04, or empty",
  directionInvalid: "Show must be mine or owed-to-me",
  filterStatusInvalid: "Status must be open, done, dismissed or all",
  needsDueDate: "Give the commitment a due date first; a reminder needs a day",
  noModel: "SAGE finds commitments with a language model, and none is configured, so nothing is being read. Configure a model to start the ledger.",
} as const;

const dueDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, COMMITMENT_TEXTS.dueDateInvalid);

/** Where a commitment was found: a knowledge item (a synced mail, a note, a document, with its page when known), or a conversation's message. */
export const commitmentSourceSchema = z.object({
  kind: z.enum(["mail", "document", "note", "message"]),
  /** The knowledge item (mail, note, document); null for a conversation message. */
  itemId: z.number().int().nullable(),
  /** 1-based page of a paged document, when the quote was found on one. */
  page: z.number().int().nullable(),
  conversationId: z.number().int().nullable(),
  messageId: z.number().int().nullable(),
  /** The mail's subject, the document's or note's name, or the conversation's name. */
  title: z.string(),
  /** When the source was written (a mail's date, a message's time), UTC ISO; null when unknown. */
  date: z.string().nullable(),
});
export type CommitmentSource = z.infer<typeof commitmentSourceSchema>;

export const commitmentSchema = z.object({
  id: z.number().int(),
  direction: z.enum(COMMITMENT_DIRECTIONS),
  kind: z.enum(COMMITMENT_KINDS),
  /** Who owes it ("me" for the user, else a name or address). */
  owner: z.string(),
  /** To whom it is owed ("me" for the user). */
  counterparty: z.string(),
  /** What is owed, in a few words ("Send the Q3 deck"). */
  what: z.string(),
  /** YYYY-MM-DD, or null when the source gave no day. */
  dueDate: z.string().nullable(),
  status: z.enum(COMMITMENT_STATUSES),
  /** The sentence of the source it was read from, word for word. */
  quote: z.string(),
  source: commitmentSourceSchema,
  /** The reminder made from it (Remind me), if any. */
  reminderId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Read from the mail of a stranger, someone the user never wrote to (issue 47, decision 064): shown as "From the
   * mail from Bob of 3 Dec". Until the user keeps it (`kept: false`) it is not the user's: the briefing, the people
   * pages, dossiers and the assistant leave it out.
   */
  derivedFrom: contentSourceSchema.optional(),
  kept: z.boolean().optional(),
});
export type Commitment = z.infer<typeof commitmentSchema>;

/** GET /api/commitments: `show` picks a direction (both when absent), `status` open (default), done, dismissed or all. */
export const commitmentQuerySchema = z.object({
  show: z.enum(COMMITMENT_DIRECTIONS, { error: COMMITMENT_TEXTS.directionInvalid }).optional(),
  status: z.enum([...COMMITMENT_STATUSES, "all"], { error: COMMITMENT_TEXTS.filterStatusInvalid }).default("open"),
});
export type CommitmentQuery = z.input<typeof commitmentQuerySchema>;

export const commitmentListSchema = z.object({
  commitments: z.array(commitmentSchema),
  /** Whether a model reads new items; when not, `message` says why in plain words. */
  extraction: z.object({
    available: z.boolean(),
    message: z.string().nullable(),
    /** When the ledger last read new items (UTC ISO), null before the first time. */
    lastRunAt: z.string().nullable(),
    /** Whether it is reading new items now. */
    running: z.boolean(),
  }),
});
export type CommitmentList = z.infer<typeof commitmentListSchema>;

/** PATCH /api/commitments/{id} */
export const updateCommitmentRequestSchema = z
  .object({
    status: z.enum(COMMITMENT_STATUSES, { error: COMMITMENT_TEXTS.statusInvalid }),
    dueDate: dueDate.nullable(),
    /** The user's Keep of a commitment read from a stranger's mail (issue 47): it becomes the user's own. */
    kept: z.literal(true, { error: COMMITMENT_TEXTS.keptInvalid }),
  })
  .partial()
  .refine((value) => value.status !== undefined || value.dueDate !== undefined || value.kept !== undefined, COMMITMENT_TEXTS.nothingToUpdate);
export type UpdateCommitmentRequest = z.infer<typeof updateCommitmentRequestSchema>;

/** POST /api/commitments/scan: the user's new items are read in the background. */
export const commitmentScanResponseSchema = z.object({ queued: z.literal(true) });

/** POST /api/commitments/{id}/reminder: the reminder made, and the commitment that now points to it. */
export const commitmentReminderResponseSchema = z.object({ reminder: reminderSchema, commitment: commitmentSchema });
