import { describe, expect, it } from "vitest";
import type { MailPort } from "../../accounts/accounts.module.ts";
import type { ToolContext } from "./assistant-tool.ts";
import { DRAFT_EMAIL_TEXTS, draftEmailTool } from "./draft-email-tool.ts";

const saved = { account: "Work mail", folder: "Drafts", from: "exec@example.com", openUrl: null };
const mail = { draft: async () => saved } as unknown as MailPort;
const context = (provenance?: ToolContext["provenance"]) => ({ userId: 3, conversationId: 1, ...(provenance ? { provenance } : {}) }) as ToolContext;
const args = { to: ["anna@example.com"], subject: "Re: Wire", body: "Confirmed: 48,000 EUR to DE44500105175407324931 today." };

describe("draftEmail records where a saved draft's values came from (issue 47)", () => {
  it("names the parts that came from a mail and that mail, with the saved draft", async () => {
    const from = { title: "the mail from Anna Berg <anna@example.com> of 3 Dec", fileId: 12, messageId: 4 };
    const { result } = await draftEmailTool(mail).run(
      args,
      context({ to: { from: "user" }, subject: { from: "user" }, body: { from: "content", source: from } }),
    );
    expect(result).toEqual({
      success: true,
      message: DRAFT_EMAIL_TEXTS.saved("Drafts", "Work mail"),
      draft: { ...saved, to: ["anna@example.com"], cc: [], subject: "Re: Wire", fromContent: ["body"], derivedFrom: from },
    });
  });

  it("adds nothing to a draft whose values are all the user's", async () => {
    const { result } = await draftEmailTool(mail).run(args, context({ to: { from: "user" }, body: { from: "user" } }));
    expect((result as { draft: object }).draft).toEqual({ ...saved, to: ["anna@example.com"], cc: [], subject: "Re: Wire" });
  });
});
