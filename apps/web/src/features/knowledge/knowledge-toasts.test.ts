import { describe, expect, it } from "vitest";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { uploadToast, urlReferenceToast } from "./knowledge-toasts";

const file = { id: 1 } as KnowledgeItem;

describe("upload toasts", () => {
  it("names each upload outcome", () => {
    expect(uploadToast("a.exe", { ok: false, status: 415, error: "x" }).title).toBe("Unsupported File Type");
    expect(uploadToast("a.pdf", { ok: false, status: 500, error: "" }).description).toBe("An unexpected error occurred during upload");
    expect(
      uploadToast("scan.pdf", {
        ok: true,
        status: 200,
        body: { status: "stored", file, chunks_processed: 0, processingResult: { status: "stored", error: "No text layer" } },
      }),
    ).toEqual({
      title: "File saved but not processed",
      description: "No text layer",
      variant: "warning",
    });
    expect(
      uploadToast("big.pdf", {
        ok: true,
        status: 202,
        body: { status: "processing_in_background", file, chunks_processed: 0, processingResult: { status: "queued" } },
      }).description,
    ).toBe("big.pdf is being processed in the background.");
    expect(
      uploadToast("a.pdf", { ok: true, status: 200, body: { status: "success", file, chunks_processed: 4, processingResult: { status: "success" } } })
        .description,
    ).toBe("a.pdf was added (4 chunks processed).");
    expect(
      uploadToast("memo.txt", { ok: true, status: 200, body: { status: "success", file, chunks_processed: 1, processingResult: { status: "success" } } })
        .description,
    ).toBe("memo.txt was added (1 chunk processed).");
  });
});

describe("a link kept as a reference", () => {
  it("says in one toast that processing failed and that the link was kept, with the reason", () => {
    expect(urlReferenceToast("The site answered 503")).toEqual({
      title: "Error processing URL",
      description: "URL Added as reference without content processing. The site answered 503",
      variant: "destructive",
    });
    expect(urlReferenceToast("").description).toBe("URL Added as reference without content processing");
  });

  it("says what a zip became: its folder, the files added, those already there and those left out", () => {
    const folder = { id: 9, name: "Strategy" } as KnowledgeItem;
    const body = { status: "success" as const, file: folder, chunks_processed: 0, processingResult: { status: "unpacked" } };
    expect(
      uploadToast("Strategy.zip", { ok: true, status: 200, body: { ...body, archive: { folderId: 9, added: 3, duplicates: 1, skipped: ["tool.exe"] } } }),
    ).toEqual({
      title: "Archive unpacked",
      description: "Strategy.zip became the folder Strategy: 3 files added (1 already there, 1 of other types left out).",
    });
    expect(
      uploadToast("One.zip", { ok: true, status: 200, body: { ...body, archive: { folderId: 9, added: 1, duplicates: 0, skipped: [] } } }).description,
    ).toBe("One.zip became the folder Strategy: 1 file added.");
  });
});
