import { z } from "zod";

/**
 * The triaged inbox (issue 53, decision 095): every synced mail of the chosen folders gets one of five labels, decided
 * by the user's rules first and the model's structured output otherwise, with a short reason and an urgent flag.
 */
export const TRIAGE_LABELS = ["needs-reply", "waiting-on-others", "fyi", "newsletter", "automated"] as const;
export type TriageLabel = (typeof TRIAGE_LABELS)[number];

/** The IMAP keywords "Label in my mailbox" writes: one per label, and one for urgent mail (decision 107). */
export const MAILBOX_KEYWORDS = {
  "needs-reply": "$SAGE-needs-reply",
  "waiting-on-others": "$SAGE-waiting-on-others",
  fyi: "$SAGE-fyi",
  newsletter: "$SAGE-newsletter",
  automated: "$SAGE-automated",
  urgent: "$SAGE-urgent",
} as const satisfies Record<TriageLabel | "urgent", string>;

export const TRIAGE_RULES_MAX = 50;
export const TRIAGE_RULE_MAX = 300;
export const FOLLOW_UP_DAYS_MAX = 30;

export const TRIAGE_TEXTS = {
  labelInvalid: `label must be one of ${TRIAGE_LABELS.join(", ")}`,
  rulesInvalid: `Give at most ${TRIAGE_RULES_MAX} rules, one sentence each of at most ${TRIAGE_RULE_MAX} characters`,
  ruleEmpty: "A rule cannot be empty",
  followUpDaysInvalid: `Follow-up after 1 to ${FOLLOW_UP_DAYS_MAX} working days`,
  foldersInvalid: "Folders must be a list of folder names",
  nothingToUpdate: "Nothing to update: send enabled, folders, followUpDays, drafts or labelInMailbox",
  messageNotFound: "Message not found",
  noModel: "SAGE sorts your mail with a language model, and none is configured, so nothing is being sorted.",
  labels: {
    "needs-reply": "Needs your reply",
    "waiting-on-others": "Waiting on others",
    fyi: "For your information",
    newsletter: "Newsletter",
    automated: "Automated",
  } satisfies Record<TriageLabel, string>,
  /** The reason of a label a rule decided. */
  byRule: (rule: string) => `Your rule: "${rule}"`,
  noDraftStranger: "No draft is prepared for someone you have never written to; press Prepare a draft to have one written.",
} as const;

/** GET /api/triage?label= */
export const triageQuerySchema = z.object({ label: z.enum(TRIAGE_LABELS, { error: TRIAGE_TEXTS.labelInvalid }).optional() });

/** Where a prepared reply waits: the account's Drafts folder, never sent. */
export const preparedDraftSchema = z.object({ folder: z.string(), subject: z.string(), account: z.string(), preparedAt: z.string() });

/** One triaged mail, as "Needs your reply" lists it. */
export const triageItemSchema = z.object({
  messageId: z.number().int(),
  from: z.string(),
  subject: z.string(),
  date: z.string().nullable(),
  label: z.enum(TRIAGE_LABELS),
  urgent: z.boolean(),
  /** Why this label, in a short sentence (a rule's words when a rule decided it). */
  reason: z.string(),
  urgentReason: z.string().nullable(),
  /** "rule" when one of the user's rules decided the label, "model" otherwise. */
  decidedBy: z.enum(["rule", "model"]),
  draft: preparedDraftSchema.optional(),
});
export type TriageItem = z.infer<typeof triageItemSchema>;
export const triageListSchema = z.array(triageItemSchema);

/** PUT /api/triage/rules: the user's rules, one sentence each ("anything from the board is urgent"). */
export const triageRulesRequestSchema = z.object({
  rules: z
    .array(z.string({ error: TRIAGE_TEXTS.rulesInvalid }).trim().min(1, TRIAGE_TEXTS.ruleEmpty).max(TRIAGE_RULE_MAX, TRIAGE_TEXTS.rulesInvalid), {
      error: TRIAGE_TEXTS.rulesInvalid,
    })
    .max(TRIAGE_RULES_MAX, TRIAGE_TEXTS.rulesInvalid),
});

/** How SAGE read a rule: what it checks itself (`understood`), in plain words; a rule it could not read goes to the model as the user's instruction. */
export const triageRuleSchema = z.object({ text: z.string(), understood: z.boolean(), meaning: z.string() });
export const triageRulesSchema = z.object({ rules: z.array(triageRuleSchema) });
export type TriageRules = z.infer<typeof triageRulesSchema>;

/** A mail the user sent that asked for something and has had no answer for followUpDays working days. */
export const followUpSchema = z.object({
  messageId: z.number().int(),
  to: z.string(),
  subject: z.string(),
  date: z.string().nullable(),
  /** What the user asked for, in a few words. */
  asked: z.string(),
  /** Working days since it was sent. */
  waitingDays: z.number().int(),
  /** A suggested nudge, saved as a draft. */
  nudge: preparedDraftSchema.optional(),
});
export type FollowUp = z.infer<typeof followUpSchema>;
export const followUpListSchema = z.array(followUpSchema);

/** GET/PUT /api/triage/settings. */
export const triageSettingsSchema = z.object({
  /** Whether SAGE sorts the user's mail: on by default (issue 53: every synced mail gets a label); the user can turn it off. */
  enabled: z.boolean(),
  /** The folders sorted (besides Sent, read for follow-ups); null: the INBOX. */
  folders: z.array(z.string()).nullable(),
  /** Working days without an answer before a mail the user sent shows under "Waiting on others". */
  followUpDays: z.number().int(),
  /** Prepare reply drafts ahead (only for people the user has written to before). */
  drafts: z.boolean(),
  /**
   * "Label in my mailbox": each sorted mail's label is also written to the mail server as an IMAP keyword
   * (MAILBOX_KEYWORDS), so other mail apps can show it. Off unless the user turns it on (decision 107).
   */
  labelInMailbox: z.boolean(),
  /** What SAGE learned of the user's style from their Sent mail; null before it has read any. */
  style: z.object({ greeting: z.string().nullable(), signOff: z.string().nullable(), words: z.number().int(), learnedFrom: z.number().int() }).nullable(),
  modelAvailable: z.boolean(),
});
export type TriageSettings = z.infer<typeof triageSettingsSchema>;

export const updateTriageSettingsSchema = z
  .object({
    enabled: z.boolean(),
    folders: z
      .array(z.string().trim().min(1).max(500), { error: TRIAGE_TEXTS.foldersInvalid })
      .min(1, TRIAGE_TEXTS.foldersInvalid)
      .max(50, TRIAGE_TEXTS.foldersInvalid)
      .nullable(),
    followUpDays: z
      .number({ error: TRIAGE_TEXTS.followUpDaysInvalid })
      .int(TRIAGE_TEXTS.followUpDaysInvalid)
      .min(1, TRIAGE_TEXTS.followUpDaysInvalid)
      .max(FOLLOW_UP_DAYS_MAX, TRIAGE_TEXTS.followUpDaysInvalid),
    drafts: z.boolean(),
    labelInMailbox: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), TRIAGE_TEXTS.nothingToUpdate);
export type UpdateTriageSettings = z.infer<typeof updateTriageSettingsSchema>;

/** The message in a path: /api/triage/{messageId}/draft. */
export const triageMessageParamsSchema = z.object({ messageId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
