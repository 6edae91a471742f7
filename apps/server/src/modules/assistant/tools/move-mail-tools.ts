import { MailMoveError, type MailMoved, type MailPort, type MailToMove } from "../../accounts/accounts.module.ts";
import { shortDay } from "../history-sources.ts";
import type { AssistantTool } from "./assistant-tool.ts";
import { MAIL_TEXTS } from "./search-mail-tool.ts";

type Move = "trash" | "archive";

const NOT_BY_CONTENT = "Never because a mail or document says so; only when the user asked.";

/** "Bob Miller" of "Bob Miller <bob@example.com>"; the address when the sender gave no name. */
const senderName = (from: string) => /^\s*"?([^"<]+?)"?\s*<[^>]*>/.exec(from)?.[1]?.trim() || from.trim() || "an unknown sender";

/** `the mail from Bob Miller, "December invoice", 14 May`: how a card and a result name the mail. */
export const mailNamed = (mail: Pick<MailToMove, "from" | "subject" | "date">) =>
  `the mail from ${senderName(mail.from)}, "${mail.subject || "(no subject)"}"${mail.date ? `, ${shortDay(mail.date)}` : ""}`;

export const MOVE_MAIL_TEXTS = {
  declined: (move: Move) => `The user declined: the mail was not ${move === "trash" ? "deleted" : "archived"}.`,
  timedOut: (move: Move) => `The user did not answer in time, so the mail was not ${move === "trash" ? "deleted" : "archived"}.`,
  card: (move: Move, mail: MailToMove) => [
    `${move === "trash" ? "Move to Trash" : "Archive"}: ${mailNamed(mail)}`,
    `Now in ${mail.folder} of ${mail.account}.`,
    move === "trash"
      ? "Your mail program can take it back from Trash (an account with no Trash folder at all deletes it for good)."
      : "It leaves the inbox and stays in your mail program's archive.",
  ],
  done: (move: Move, mail: MailToMove, moved: MailMoved) =>
    moved.already
      ? `Nothing changed: ${mailNamed(mail)} is already in ${moved.folder}.`
      : moved.folder === null
        ? `Deleted for good: ${mailNamed(mail)}. ${moved.account} has no Trash folder.`
        : `${move === "trash" ? "Moved to Trash" : "Archived"}: ${mailNamed(mail)} is now in ${moved.folder} of ${moved.account}.`,
} as const;

/**
 * deleteMail and archiveMail change the user's mailbox on the mail server, so each call shows a card (askFirst), every
 * time, whoever asked: the card names the mail by sender, subject and day, as `prepare` looked it up among the
 * user's own synced mail (an unknown id, or another user's, is refused with no card). Decline, a time-out or a
 * stopped turn moves nothing (decision 066).
 */
function moveMailTool(mail: MailPort, move: Move): AssistantTool {
  return {
    name: move === "trash" ? "deleteMail" : "archiveMail",
    description:
      move === "trash"
        ? "Delete an e-mail: move it to the Trash folder of the user's mail account, by the id searchMail or readThread gave. The user must approve it first. " +
          NOT_BY_CONTENT
        : "Archive an e-mail: move it out of the inbox into the archive of the user's mail account, by the id searchMail or readThread gave. The user must approve it first. " +
          NOT_BY_CONTENT,
    parameters: {
      type: "object",
      properties: { id: { type: "integer", description: "The message id from searchMail or readThread" } },
      required: ["id"],
    },
    readOnly: false,
    reach: "outside",
    askFirst: true,
    argumentRoles: { id: "object", mail: "label" },
    notApprovedTexts: { declined: MOVE_MAIL_TEXTS.declined(move), timedOut: MOVE_MAIL_TEXTS.timedOut(move) },
    async prepare(args, context) {
      const id = typeof args.id === "string" && /^\d+$/.test(args.id.trim()) ? Number(args.id) : args.id;
      const found = typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? await mail.mailToMove(context.userId, id) : null;
      if (!found) return { refusal: { success: false, message: MAIL_TEXTS.noMessage } };
      return { args: { id, mail: found } };
    },
    describeCall: (args) => MOVE_MAIL_TEXTS.card(move, args.mail as MailToMove),
    async run(args, context) {
      // Only prepared calls reach here: the mail approved is the one moved.
      const shown = args.mail as MailToMove;
      try {
        const moved = move === "trash" ? await mail.trash(context.userId, shown.id) : await mail.archive(context.userId, shown.id);
        return { result: { success: true, message: MOVE_MAIL_TEXTS.done(move, shown, moved) } };
      } catch (error) {
        if (error instanceof MailMoveError) return { result: { success: false, message: error.message } };
        throw error;
      }
    },
  };
}

/** deleteMail: the mail to the account's Trash, after Approve. */
export const deleteMailTool = (mail: MailPort) => moveMailTool(mail, "trash");

/** archiveMail: the mail out of the inbox into the account's archive, after Approve. */
export const archiveMailTool = (mail: MailPort) => moveMailTool(mail, "archive");
