import type { CallProvenance, ContentSource } from "@sage/contracts/provenance";
import { MailSendError, type MailPort } from "../../accounts/accounts.module.ts";
import type { AssistantTool } from "./assistant-tool.ts";
import { MAIL_ARG_TEXTS, MAIL_PARAMETERS, readMailArgs } from "./mail-tool-args.ts";

export const DRAFT_EMAIL_TEXTS = {
  ...MAIL_ARG_TEXTS,
  declined: "The user declined: the draft was not saved.",
  timedOut: "The user did not answer in time, so the draft was not saved.",
  saved: (folder: string, account: string) => `Saved as a draft in ${folder} of ${account}. Nothing was sent.`,
} as const;

/** The parts of a draft the card can say came from someone else's text. */
const DRAFT_PARTS = ["to", "cc", "subject", "body"] as const;

/**
 * Where a saved draft's values came from (issue 47): the parts that are content-derived and the source of the first
 * of them, kept with the result (so with the saved turn) and shown under the draft in the chat. Nothing when every
 * value is the user's.
 */
export function draftOrigin(provenance: CallProvenance | undefined): { fromContent?: (typeof DRAFT_PARTS)[number][]; derivedFrom?: ContentSource } {
  const fromContent = DRAFT_PARTS.filter((part) => provenance?.[part]?.from === "content");
  if (fromContent.length === 0) return {};
  const derivedFrom = fromContent.map((part) => provenance![part]!.source).find((source) => source !== undefined);
  return { fromContent, ...(derivedFrom ? { derivedFrom } : {}) };
}

/**
 * draftEmail saves a draft in the user's own Drafts folder: nothing leaves, so a draft the user asked for runs at
 * once (the user sends it from their mail program, or asks SAGE's sendEmail, which asks first). But a draft is a
 * mail one click from sent: after untrusted content (this turn's or the conversation's), one carrying words the user
 * never typed waits for Approve (issue 47). The result names the account and folder, and the provider's web mail
 * when there is one, which the chat shows as "Open in mail".
 */
export function draftEmailTool(mail: MailPort): AssistantTool {
  return {
    name: "draftEmail",
    description:
      "Save an e-mail as a draft in the Drafts folder of the user's connected mail account, without sending it. " +
      "Use it when the user asks for a draft, or to prepare a reply they will check and send themselves.",
    parameters: MAIL_PARAMETERS,
    readOnly: false,
    reach: "draft",
    argumentRoles: { from: "label", to: "recipients", cc: "recipients", subject: "text", body: "text", inReplyTo: "setting" },
    notApprovedTexts: { declined: DRAFT_EMAIL_TEXTS.declined, timedOut: DRAFT_EMAIL_TEXTS.timedOut },
    async run(args, context) {
      const read = readMailArgs(args);
      if ("refusal" in read) return { result: read.refusal };
      try {
        const saved = await mail.draft(context.userId, read.mail);
        const { to, cc, subject } = read.mail;
        return {
          result: {
            success: true,
            message: DRAFT_EMAIL_TEXTS.saved(saved.folder, saved.account),
            draft: { ...saved, to, cc, subject, ...draftOrigin(context.provenance) },
          },
        };
      } catch (error) {
        if (error instanceof MailSendError) return { result: { success: false, message: error.message } };
        throw error;
      }
    },
  };
}
