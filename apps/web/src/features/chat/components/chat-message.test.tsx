import type { Citation } from "@sage/contracts/conversations";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/test/render-with-providers";
import { ChatMessage } from "./chat-message";

const base = { score: 1, content: "quoted" };
const citations: Citation[] = [
  { n: 1, fileId: 41, filename: "Offsite dates", source: "mail", ...base, kind: "file" },
  { n: 2, fileId: 0, filename: "Chip stocks rally", source: "news.example.com", ...base, kind: "url", href: "https://news.example.com/chips" },
  { n: 3, fileId: 0, filename: "Planning", source: "your message", ...base, kind: "message", href: "/conversations/8" },
  { n: 4, fileId: 0, filename: "Board meeting", source: "Work, 09:00–10:00", ...base, kind: "event" },
];

describe("citation chips", () => {
  it("open a file's passage, a web page or a conversation, and name an event", async () => {
    const onOpen = vi.fn();
    renderWithProviders(
      <ul>
        <ChatMessage role="ai" content="Briefing" citations={citations} onOpenCitation={onOpen} />
      </ul>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Source 1: Offsite dates, mail" }));
    expect(onOpen).toHaveBeenCalledWith(citations[0]);
    const page = screen.getByRole("link", { name: "Source 2: Web page, Chip stocks rally, news.example.com" });
    expect([page.getAttribute("href"), page.getAttribute("target")]).toEqual(["https://news.example.com/chips", "_blank"]);
    expect(screen.getByRole("link", { name: "Source 3: Your message, Planning, your message" }).getAttribute("href")).toBe("/conversations/8");
    expect(screen.getByLabelText("Source 4: Event, Board meeting, Work, 09:00–10:00").tagName).toBe("SPAN");
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});

describe("message actions", () => {
  it("copy the message's Markdown from the keyboard and say Copied", async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <ul>
        <ChatMessage role="ai" content={"**Agenda**\n- Budget"} messageId={5} actions={{}} />
      </ul>,
    );
    const copy = screen.getByRole("button", { name: "Copy message" });
    expect(screen.getByRole("status").textContent).toBe("");
    copy.focus();
    await user.keyboard("{Enter}");
    expect(await navigator.clipboard.readText()).toBe("**Agenda**\n- Budget");
    expect(screen.getByRole("status").textContent).toBe("Copied");
  });

  it("copy the user's own message too", async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <ul>
        <ChatMessage role="user" content="Draft the memo" messageId={4} actions={{}} />
      </ul>,
    );
    await user.click(screen.getByRole("button", { name: "Copy message" }));
    expect(await navigator.clipboard.readText()).toBe("Draft the memo");
  });

  it("step through a message's versions with < 2/3 >", async () => {
    const onShow = vi.fn();
    renderWithProviders(
      <ul>
        <ChatMessage role="ai" content="Second try" messageId={5} actions={{ siblings: [3, 5, 9], onShowBranch: onShow }} />
      </ul>,
    );
    const versions = screen.getByRole("group", { name: "Version 2 of 3" });
    expect(versions.textContent).toContain("2/3");
    await userEvent.click(screen.getByRole("button", { name: "Next version" }));
    await userEvent.click(screen.getByRole("button", { name: "Previous version" }));
    expect(onShow.mock.calls).toEqual([[9], [3]]);
  });

  it("edit the user's message: Enter sends the new text, Escape leaves it as it was", async () => {
    const onEditSend = vi.fn();
    renderWithProviders(
      <ul>
        <ChatMessage role="user" content="Capital of France?" messageId={4} actions={{}} onEditSend={onEditSend} />
      </ul>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Edit message" }));
    await userEvent.keyboard("{Escape}");
    expect(screen.getByText("Capital of France?")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Edit message" }));
    const editor = screen.getByRole("textbox", { name: "Edit your message" });
    await userEvent.clear(editor);
    await userEvent.type(editor, "Capital of Italy?{Enter}");
    expect(onEditSend).toHaveBeenCalledWith("Capital of Italy?");
    expect(onEditSend).toHaveBeenCalledTimes(1);
  });
});
