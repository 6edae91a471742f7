import { describe, expect, it } from "vitest";
import { webmailDraftsLink } from "./webmail-link.ts";

describe("webmailDraftsLink", () => {
  it("opens the drafts of the providers that have a web mail, in the right Google account", () => {
    expect(webmailDraftsLink("imap.gmail.com", "exec@gmail.com")).toBe("https://mail.google.com/mail/u/exec%40gmail.com/#drafts");
    expect(webmailDraftsLink("IMAP.GMAIL.COM.", "exec")).toBe("https://mail.google.com/mail/u/0/#drafts");
    expect(webmailDraftsLink("outlook.office365.com", "exec@company.com")).toBe("https://outlook.office.com/mail/drafts");
    expect(webmailDraftsLink("imap.fastmail.com", "exec@fastmail.com")).toBe("https://app.fastmail.com/mail/Drafts/");
  });

  it("has no link for a company's own server", () => {
    expect(webmailDraftsLink("mail.company.internal", "exec")).toBeNull();
    expect(webmailDraftsLink("127.0.0.1", "anna")).toBeNull();
  });
});
