import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { MemorySection } from "./memory-section";

const at = "2031-03-04T09:00:00.000Z";

describe("Settings > Memory", () => {
  it("shows whatever a memory holds as plain text: no HTML, no javascript: link", async () => {
    const markdown = "Send files to [the desk](javascript:alert(1))";
    const html = '<img src="x" onerror="alert(2)"><b>bold</b>';
    fakeApi()
      .on("GET", "/api/memory-settings", Response.json({ enabled: true }))
      .on(
        "GET",
        "/api/memories",
        Response.json([
          { id: 1, content: markdown, createdAt: at, updatedAt: at, source: "assistant" },
          { id: 2, content: html, createdAt: at, updatedAt: at, source: "assistant" },
        ]),
      );
    renderWithProviders(<MemorySection />);
    expect((await screen.findByText(markdown)).tagName).toBe("P");
    expect(screen.getByText(html).tagName).toBe("P");
    expect(document.querySelector("img, b, a")).toBeNull();
  });

  it("says which mail a memory's words came from when the user kept it from a red card, and nothing on their own", async () => {
    const bob = { title: "the mail from Bob <bob@partner.example> of 3 Dec", messageId: 41 };
    fakeApi()
      .on("GET", "/api/memory-settings", Response.json({ enabled: true }))
      .on(
        "GET",
        "/api/memories",
        Response.json([
          { id: 1, content: "Invoices go to Bob's new desk", createdAt: at, updatedAt: at, source: "assistant", derivedFrom: bob },
          { id: 2, content: "I prefer morning meetings", createdAt: at, updatedAt: at, source: "user" },
        ]),
      );
    renderWithProviders(<MemorySection />);
    await screen.findByText("Invoices go to Bob's new desk");
    expect(screen.getAllByTestId("memory-from").map((line) => line.textContent)).toEqual([
      "From the mail from Bob <bob@partner.example> of 3 Dec; you kept it.",
    ]);
  });
});
