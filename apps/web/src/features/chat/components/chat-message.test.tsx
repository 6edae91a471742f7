// @vitest-environment happy-dom
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
