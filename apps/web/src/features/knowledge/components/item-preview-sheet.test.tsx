// @vitest-environment happy-dom
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ItemPreviewSheet } from "./item-preview-sheet";

const item: KnowledgeItem = {
  id: 5,
  name: "zebra-report.md",
  type: "file",
  path: "zebra-report.md",
  description: "Census",
  content: "",
  url: null,
  parentId: 0,
  userId: 3,
  conversationId: 7,
  size: 2048,
  status: "ready",
  statusReason: null,
  chunkCount: 3,
  createdAt: "2031-03-04T09:00:00.000Z",
};

describe("ItemPreviewSheet", () => {
  it("renders a cited passage's Markdown, and keeps its score behind Details", async () => {
    fakeApi().on("GET", "/api/files/5/text", Response.json({ sections: [] }));
    const passage = { n: 1, source: "zebra-report.md#2", score: 0.9009, content: "# Zebra census\n\n**41 zebras** were counted." };
    renderWithProviders(<ItemPreviewSheet item={item} onClose={() => {}} passage={passage} />);
    const quoted = await screen.findByTestId("preview-cited-passage");
    expect(quoted.textContent?.replace(/\s+/g, " ").trim()).toBe("Zebra census 41 zebras were counted.");
    expect(quoted.querySelector("strong")?.textContent).toBe("41 zebras");
    expect(screen.getByText(/^Cited passage \[1\]/).textContent).not.toContain("0.9009");
    const details = screen.getByText("Details").closest("details")!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain("0.9009");
  });

  it("shows the document's text page by page, the cited page marked, with Download", async () => {
    fakeApi().on(
      "GET",
      "/api/files/5/text",
      Response.json({
        sections: [
          { source: "page 1", text: "Census method." },
          { source: "page 2", text: "41 zebras were counted." },
        ],
      }),
    );
    const passage = { n: 1, source: "page 2", score: 0.8, content: "41 zebras were counted." };
    renderWithProviders(<ItemPreviewSheet item={{ ...item, name: "census.pdf" }} onClose={() => {}} passage={passage} />);
    const text = await screen.findByTestId("preview-document-text");
    const pages = within(text).getAllByRole("region");
    expect(pages.map((page) => page.getAttribute("aria-label"))).toEqual(["Page 1", "Page 2"]);
    expect(pages[1]!.textContent).toContain("41 zebras were counted.");
    expect(pages[1]!.className).toContain("bg-primary/5");
    const download = screen.getByRole("link", { name: "Download" });
    expect(download.getAttribute("href")).toBe("/api/files/5/download");
  });
});
