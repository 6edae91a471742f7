import { describe, expect, it } from "vitest";
import { MailMoveError, type MailPort, type MailToMove } from "../../accounts/accounts.module.ts";
import type { ToolContext } from "./assistant-tool.ts";
import { archiveMailTool, deleteMailTool, MOVE_MAIL_TEXTS } from "./move-mail-tools.ts";

const invoice: MailToMove = {
  id: 7,
  subject: "December invoice",
  from: "Bob Miller <bob@example.com>",
  date: "2026-05-14T09:30:00.000Z",
  folder: "INBOX",
  account: "Work mail",
};
/** User 3's synced mail holds only message 7; every other id (or user) is unknown. */
const asked: { userId: number; id: number }[] = [];
const mail = {
  mailToMove: async (userId: number, id: number) => {
    asked.push({ userId, id });
    return userId === 3 && id === 7 ? invoice : null;
  },
  trash: async () => {
    throw new MailMoveError("The mail was not deleted. The mail server example.com could not be found. Check the server name.");
  },
  archive: async () => ({ account: "Work mail", folder: "Archive" }),
} as unknown as MailPort;
const noMessage = { refusal: { success: false, message: "No such message: use an id that searchMail gave." } };

describe("deleteMail and archiveMail look the mail up before any card (issue 47)", () => {
  it.each([{ id: 8 }, { id: 0 }, { id: -7 }, { id: 7.5 }, { id: "seven" }, {}])("refuses %j with a sentence for the model, no card", async (args) => {
    expect(await deleteMailTool(mail).prepare!(args, { userId: 3 })).toEqual(noMessage);
    expect(await archiveMailTool(mail).prepare!(args, { userId: 3 })).toEqual(noMessage);
  });

  it("refuses another user's mail by the same id", async () => {
    asked.length = 0;
    expect(await deleteMailTool(mail).prepare!({ id: 7 }, { userId: 4 })).toEqual(noMessage);
    expect(asked).toEqual([{ userId: 4, id: 7 }]);
  });

  it("shows the mail in words on the card: sender's name, subject and day, where it is, and what can be undone", async () => {
    const prepared = await deleteMailTool(mail).prepare!({ id: "7" }, { userId: 3 });
    expect(prepared).toEqual({ args: { id: 7, mail: invoice } });
    const { args } = prepared as { args: Record<string, unknown> };
    expect(deleteMailTool(mail).describeCall!(args)).toEqual([
      'Move to Trash: the mail from Bob Miller, "December invoice", 14 May',
      "Now in INBOX of Work mail.",
      "Your mail program can take it back from Trash (an account with no Trash folder at all deletes it for good).",
    ]);
    expect(archiveMailTool(mail).describeCall!(args)[0]).toBe('Archive: the mail from Bob Miller, "December invoice", 14 May');
    const bare = { ...invoice, from: "bob@example.com", subject: "", date: null };
    expect(deleteMailTool(mail).describeCall!({ id: 7, mail: bare })[0]).toBe('Move to Trash: the mail from bob@example.com, "(no subject)"');
  });

  it("asks every time and says what did not happen, in plain words", async () => {
    for (const tool of [deleteMailTool(mail), archiveMailTool(mail)])
      expect(tool).toMatchObject({ readOnly: false, askFirst: true, argumentRoles: { id: "object" } });
    expect(deleteMailTool(mail).notApprovedTexts).toEqual({ declined: MOVE_MAIL_TEXTS.declined("trash"), timedOut: MOVE_MAIL_TEXTS.timedOut("trash") });
    const context = { userId: 3 } as ToolContext;
    expect((await deleteMailTool(mail).run({ id: 7, mail: invoice }, context)).result).toEqual({
      success: false,
      message: "The mail was not deleted. The mail server example.com could not be found. Check the server name.",
    });
    expect((await archiveMailTool(mail).run({ id: 7, mail: invoice }, context)).result).toEqual({
      success: true,
      message: 'Archived: the mail from Bob Miller, "December invoice", 14 May is now in Archive of Work mail.',
    });
  });
});
