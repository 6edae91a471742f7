/**
 * Whether the user's message is about their mail (issue 47): only then do passages of mail go with it. Synced mail is
 * text anyone can send the user; beside every message, any stranger's mail could speak in any turn.
 */
const MAIL_WORDS =
  /\b(?:e-?mails?|mail(?:s|ed|box)?|inbox|messages?|wrote|written|writes|sent|sender|senders|repl(?:y|ies|ied)|answered|threads?|newsletters?|unread|forward(?:ed)?|cc|bcc|attachments?|attached)\b/i;

export const isAboutMail = (text: string) => MAIL_WORDS.test(text);

/** Whether a passage is of a mail: a synced message (`mailItems`), or a mail file the user keeps (.eml). */
export const isMailPassage = (filename: string, fileId: number | undefined, mailItems: ReadonlySet<number>) =>
  /\.eml$/i.test(filename) || (fileId !== undefined && mailItems.has(fileId));
