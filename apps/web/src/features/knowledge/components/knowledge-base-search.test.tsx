import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { KnowledgeBaseSection } from "./knowledge-base-section";

const file = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  type: "file",
  path: name,
  description: "d",
  content: "",
  url: null,
  parentId: 0,
  userId: 3,
  conversationId: 0,
  size: 10,
  status: "ready",
  statusReason: null,
  chunkCount: 1,
  createdAt: "2031-03-05T10:00:00.000Z",
  ...extra,
});
const passage = (fileId: number, filename: string, content: string) => ({ content, score: 0.8, metadata: { filename, source: filename, file_id: fileId } });

describe("Knowledge base search", () => {
  it("matches names and contents through the search index, and says which matched", async () => {
    const api = fakeApi()
      .on("GET", "/api/debug/routes-test", Response.json({ status: "success" }))
      .on("GET", "/api/shares", Response.json([]))
      .on("GET", /^\/api\/files\?userId=\d*$/, Response.json([file(1, "Zebra facts.txt"), file(2, "Safari notes.txt"), file(3, "Budget.txt")]))
      .on(
        "POST",
        "/api/search",
        Response.json([
          passage(2, "Safari notes.txt", "# Day two\nWe saw a zebra at the water hole, then lions."),
          passage(1, "Zebra facts.txt", "Every zebra has its own stripes."),
          passage(2, "Safari notes.txt", "Another zebra passage."),
        ]),
      );
    const { user } = renderWithProviders(<KnowledgeBaseSection />);
    await screen.findByRole("button", { name: "Preview Budget.txt" });
    await user.type(screen.getByRole("textbox", { name: "Search knowledge base" }), "zebra");

    const list = screen.getByRole("list", { name: "Knowledge items" });
    await within(list).findByRole("button", { name: "Preview Safari notes.txt" });
    const matches = within(list)
      .getAllByRole("listitem")
      .map((row) => [row.getAttribute("data-item-name"), within(row).getByTestId("item-match").textContent]);
    expect(matches).toEqual([
      ["Zebra facts.txt", 'Name and text match: "Every zebra has its own stripes."'],
      ["Safari notes.txt", 'Text matches: "Day two We saw a zebra at the water hole, then lions."'],
    ]);
    expect(api.requests("POST", "/api/search").map((request) => request.body)).toEqual([{ query: "zebra", limit: 50 }]);
  });
});

describe("Conversation files in Settings > Knowledge Base", () => {
  it("says where they are instead of 'This folder is empty', each conversation a link", async () => {
    fakeApi()
      .on("GET", "/api/debug/routes-test", Response.json({ status: "success" }))
      .on("GET", "/api/shares", Response.json([]))
      .on(
        "GET",
        /^\/api\/files\?userId=\d*$/,
        Response.json([
          file(1, "Agenda.docx", { conversationId: 5 }),
          file(2, "Minutes.pdf", { conversationId: 5 }),
          file(3, "Offer.pdf", { conversationId: 8 }),
          file(4, "Drafts", { conversationId: 8, type: "folder" }),
        ]),
      );
    const names: Record<number, string> = { 5: "Board prep", 8: "Hiring plan" };
    renderWithProviders(<KnowledgeBaseSection conversationName={(id) => names[id]} />);
    const section = await screen.findByRole("region", { name: "Files in conversations" });
    expect(screen.queryByText("This folder is empty")).toBeNull();
    expect(screen.getByText("The knowledge base has no items of its own yet. Your conversations' files are listed below.")).toBeTruthy();
    expect(
      within(section)
        .getAllByTestId("conversation-files")
        .map((row) => row.textContent),
    ).toEqual(["Hiring plan1 file", "Board prep2 files"]);
    expect(within(section).getByRole("link", { name: "Board prep" }).getAttribute("href")).toBe("/conversations/5");
  });
});
