import { screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { VectorDatabaseActions } from "./vector-database-actions";

const embedder = { id: "gemini:gemini-embedding-001:768", dimensions: 768, lexicalOnly: false };
const status = (chunks: number, vectorized: number) => Response.json({ embedder, chunks, vectorized, stale: 0, job: null, catchUp: null });

/** The settings page's part: the knowledge's state, which changes when the upload's item is read. */
function Harness() {
  const [state, setState] = useState("4:ready:1,9:processing:0");
  return (
    <>
      <button type="button" onClick={() => setState("4:ready:1,9:ready:12")}>
        Item read
      </button>
      <VectorDatabaseActions knowledgeState={state} />
    </>
  );
}

describe("VectorDatabaseActions", () => {
  it("reads the status again when an upload finished being read, without leaving the page", async () => {
    const api = fakeApi().on("GET", "/api/vectors/status", status(1, 1));
    const { user } = renderWithProviders(<Harness />);
    expect((await screen.findByRole("status")).textContent).toBe("Search is ready for your 1 passage.");

    api.on("GET", "/api/vectors/status", status(13, 13));
    await user.click(screen.getByRole("button", { name: "Item read" }));
    expect(await screen.findByText("Search is ready for all 13 passages.")).toBeTruthy();
    expect(api.requests("GET", "/api/vectors/status")).toHaveLength(2);
  });
});
