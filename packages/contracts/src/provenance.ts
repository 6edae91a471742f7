import { z } from "zod";

/**
 * Where a value came from (issue 47, decision 062): the user's own words and data, or text someone else wrote (a
 * mail, a document, a web page, a calendar description, a tool's answer).
 */

/** A piece of untrusted content, as a card names it: "the mail from bob@partner.example of 3 Dec". */
export const contentSourceSchema = z.object({
  /** In plain words, for the card. */
  title: z.string(),
  /** The knowledge item it is (a document, a synced mail's .eml). */
  fileId: z.number().int().optional(),
  /** The synced mail it is (searchMail's id). */
  messageId: z.number().int().optional(),
});
export type ContentSource = z.infer<typeof contentSourceSchema>;

/** One argument of a call: the user's (typed, or in their own data) or content-derived, and then from where. */
export const argumentProvenanceSchema = z.object({
  from: z.enum(["user", "content"]),
  /** The content the value was found in; absent when it was found nowhere the user wrote and in no one source. */
  source: contentSourceSchema.optional(),
});
export type ArgumentProvenance = z.infer<typeof argumentProvenanceSchema>;

/** Per argument name. */
export const callProvenanceSchema = z.record(z.string(), argumentProvenanceSchema);
export type CallProvenance = z.infer<typeof callProvenanceSchema>;

/**
 * What a card asks: "asked", a call whose values are the user's own ("As you asked"); "content-derived", a call
 * carrying a value that came from someone else's text (a red card, confirmed twice).
 */
export const approvalRiskSchema = z.enum(["asked", "content-derived"]);
export type ApprovalRisk = z.infer<typeof approvalRiskSchema>;
