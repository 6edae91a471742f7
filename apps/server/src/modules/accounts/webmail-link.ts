/**
 * Where the user can open their drafts in the provider's own web mail, known by the IMAP server's name (decision
 * 040): Gmail, Microsoft 365, Outlook.com, Fastmail and iCloud. Any other server has no address a browser could
 * open, so the chat says which account and folder hold the draft instead.
 */
export function webmailDraftsLink(imapHost: string, user: string): string | null {
  const host = imapHost.trim().toLowerCase().replace(/\.$/, "");
  if (host === "imap.gmail.com" || host === "imap.googlemail.com") {
    // The account in the path opens the right mailbox when several Google accounts are signed in.
    const account = user.includes("@") ? encodeURIComponent(user) : "0";
    return `https://mail.google.com/mail/u/${account}/#drafts`;
  }
  if (host === "outlook.office365.com" || host === "outlook.office.com") return "https://outlook.office.com/mail/drafts";
  if (host === "imap-mail.outlook.com") return "https://outlook.live.com/mail/0/drafts";
  if (host === "imap.fastmail.com") return "https://app.fastmail.com/mail/Drafts/";
  if (host === "imap.mail.me.com") return "https://www.icloud.com/mail/";
  return null;
}
