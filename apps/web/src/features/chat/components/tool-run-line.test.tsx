import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ToolRunLine } from "./tool-run-line";

const draft = (openUrl: string | null) => ({
  name: "draftEmail",
  args: { to: ["anna@example.com"], subject: "Re: Board pack", body: "My comments are on page 4." },
  result: {
    success: true,
    message: "Saved as a draft in Drafts of Work mail. Nothing was sent.",
    draft: { account: "Work mail", folder: "Drafts", from: "exec@example.com", openUrl, to: ["anna@example.com"], cc: [], subject: "Re: Board pack" },
  },
});

describe("ToolRunLine for a saved draft", () => {
  afterEach(cleanup);

  it("offers Open in mail when the provider has a web mail", () => {
    render(
      <ul>
        <ToolRunLine call={draft("https://mail.google.com/mail/u/exec%40gmail.com/#drafts")} />
      </ul>,
    );
    expect(screen.getByText(/Ran Save an e-mail draft - Saved as a draft in Drafts of Work mail/)).toBeTruthy();
    expect(screen.getByTestId("draft-saved").textContent).toContain("Draft saved, not sent: Re: Board pack to anna@example.com.");
    const link = screen.getByRole("link", { name: /Open in mail/ });
    expect(link.getAttribute("href")).toBe("https://mail.google.com/mail/u/exec%40gmail.com/#drafts");
    expect(link.getAttribute("target")).toBe("_blank");
  });

  it("says which parts of a draft came from a mail, and from which (issue 47)", () => {
    const call = draft(null);
    const from = { title: "the mail from Bob <bob@partner.example> of 3 Dec", fileId: 4 };
    render(
      <ul>
        <ToolRunLine call={{ ...call, result: { ...call.result, draft: { ...call.result.draft, fromContent: ["to", "body"], derivedFrom: from } } }} />
      </ul>,
    );
    expect(screen.getByTestId("draft-from").textContent).toBe(
      "Its recipient and text come from the mail from Bob <bob@partner.example> of 3 Dec, not from you. Check it before you send it.",
    );
    cleanup();
    render(
      <ul>
        <ToolRunLine call={draft(null)} />
      </ul>,
    );
    expect(screen.queryByTestId("draft-from")).toBeNull();
  });

  it("says where the draft is when no link can be formed, and shows nothing for a failed draft", () => {
    render(
      <ul>
        <ToolRunLine call={draft(null)} />
        <ToolRunLine call={{ name: "draftEmail", args: {}, result: { success: false, message: "The draft was not saved." } }} />
      </ul>,
    );
    expect(screen.queryByRole("link", { name: /Open in mail/ })).toBeNull();
    expect(screen.getAllByTestId("draft-saved")).toHaveLength(1);
    expect(screen.getByTestId("draft-saved").textContent).toContain("It is in the Drafts folder of Work mail.");
  });
});
