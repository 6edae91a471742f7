import { describe, expect, it } from "vitest";
import { pdfPages } from "./test/read-back.ts";
import { TOO_LONG_TO_WRITE, writeDocumentInThread } from "./write-in-thread.ts";

describe("writeDocumentInThread", () => {
  it("writes the document in a thread and hands back its bytes", async () => {
    const cited = { n: 1, fileId: 4, filename: "memo-notes.txt", source: "memo-notes.txt", score: 0.9, content: "..." };
    const bytes = await writeDocumentInThread({
      kind: "markdown",
      format: "pdf",
      title: "Memo",
      content: "Written off the main thread [1].",
      citations: [cited],
    });
    expect((await pdfPages(bytes))[0]).toMatch(/Written off the main thread \[1\]\.[\s\S]*1 memo-notes\.txt\s*$/);
  });

  it("stops a writer that takes too long, saying so in plain words", async () => {
    const long = { kind: "markdown" as const, format: "docx" as const, title: "Long", content: "A line of the report.\n\n".repeat(2_000), citations: [] };
    await expect(writeDocumentInThread(long, 50)).rejects.toMatchObject({ status: 503, message: TOO_LONG_TO_WRITE });
  });
});
