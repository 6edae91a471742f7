// @vitest-environment happy-dom
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
