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

  it("shows the document's text page by page, the cited page marked, with Download and Open", async () => {
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
    // A PDF opens in the browser's own viewer, in a new tab.
    const open = screen.getByRole("link", { name: "Open" });
    expect(open.getAttribute("href")).toBe("/api/files/5/download?inline=1");
    expect(open.getAttribute("target")).toBe("_blank");
  });

  it("shows a mail with its From, To, Cc, Date and Subject above its text", async () => {
    const text =
      "From: Anna Berg <anna@example.com>\nTo: Exec <exec@example.com>\nCc: CFO <cfo@example.com>\nDate: Thu, 19 Nov 2026 09:00:00 +0000\nSubject: Quarterly budget\n\nPlease approve the budget by Friday.";
    fakeApi().on("GET", "/api/files/5/text", Response.json({ sections: [{ source: "", text }] }));
    renderWithProviders(<ItemPreviewSheet item={{ ...item, name: "Quarterly budget - Anna Berg, 2026-11-19 (42).eml" }} onClose={() => {}} />);
    const headers = await screen.findByTestId("mail-headers");
    const terms = [...headers.querySelectorAll("dt")].map((term) => term.textContent);
    const values = [...headers.querySelectorAll("dd")].map((value) => value.textContent);
    expect(terms).toEqual(["From", "To", "Cc", "Date", "Subject"]);
    expect(values).toEqual([
      "Anna Berg <anna@example.com>",
      "Exec <exec@example.com>",
      "CFO <cfo@example.com>",
      "Thu, 19 Nov 2026 09:00:00 +0000",
      "Quarterly budget",
    ]);
    const body = screen.getByTestId("preview-document-text").querySelector("p")!;
    expect(body.textContent).toBe("Please approve the budget by Friday.");
    // A browser cannot show a mail file itself: Download only.
    expect(screen.getByRole("link", { name: "Download" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Open" })).toBeNull();
  });

  it("shows a text file that merely starts with From: as it is", async () => {
    fakeApi().on("GET", "/api/files/5/text", Response.json({ sections: [{ source: "", text: "From: the board\nWe met on Monday." }] }));
    renderWithProviders(<ItemPreviewSheet item={{ ...item, name: "minutes.txt" }} onClose={() => {}} />);
    const text = await screen.findByTestId("preview-document-text");
    expect(within(text).queryByTestId("mail-headers")).toBeNull();
    expect(text.textContent).toContain("From: the board\nWe met on Monday.");
  });
});
