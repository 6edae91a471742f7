import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ConversationKnowledgePanel } from "./conversation-knowledge-panel";

const longName = "Quarterly board pack - capital allocation and succession planning (final, approved).pdf";
const file = {
  id: 12,
  name: longName,
  type: "file",
  path: longName,
  description: "The board's pack for March",
  content: "",
  url: null,
  parentId: 0,
  userId: 3,
  conversationId: 7,
  size: 2048,
  status: "ready",
  statusReason: null,
  chunkCount: 4,
  createdAt: "2031-03-05T10:00:00.000Z",
};

describe("ConversationKnowledgePanel", () => {
  it("shows a file's whole name, and clicking it opens the file's preview", async () => {
    fakeApi()
      .on("GET", "/api/conversations/7/files", Response.json([file]))
      .on("GET", "/api/files/12/text", Response.json({ sections: [{ source: "page 1", text: "Board pack" }] }));
    const { user } = renderWithProviders(<ConversationKnowledgePanel conversationId={7} />);
    const name = await screen.findByRole("button", { name: longName });
    // Wrapped, never cut with an ellipsis.
    expect(name.className).not.toMatch(/\btruncate\b|text-ellipsis/);
    await user.click(name);
    const preview = await screen.findByRole("dialog", { name: longName });
    expect(within(preview).getByTestId("preview-description").textContent).toBe("The board's pack for March");
  });

  it("marks a file Processing while it is read, and drops the mark by itself once it is ready (issue 33 item 15)", async () => {
    const api = fakeApi().on("GET", "/api/conversations/7/files", Response.json([{ ...file, status: "processing", chunkCount: 0 }]));
    renderWithProviders(<ConversationKnowledgePanel conversationId={7} />);
    const row = (await screen.findByRole("button", { name: longName })).closest("li")!;
    expect(within(row).getByText("Processing")).toBeTruthy();
    // The next look at the list (the panel asks again while a file is being read) finds it ready.
    api.on("GET", "/api/conversations/7/files", Response.json([file]));
    await waitFor(() => expect(within(screen.getByRole("button", { name: longName }).closest("li")!).queryByText("Processing")).toBeNull());
  });
});
