import { UNSUPPORTED_FILE_TYPE_MESSAGE, UNSUPPORTED_FILE_TYPE_TITLE } from "@sage/contracts/knowledge";
import { countOf } from "@sage/contracts/text";
import { errorToast } from "@/components/ui/toast-error";
import type { UploadOutcome } from "./api/add-knowledge";

export interface ToastSpec {
  title: string;
  description?: string;
  variant?: "default" | "destructive" | "warning";
}

export const UNEXPECTED_UPLOAD_ERROR = "An unexpected error occurred during upload";
export const URL_REFERENCE_TITLE = "URL Added as reference without content processing";
export const NOTE_SEARCH_WARNING = "The note was saved but might not appear in search results.";

export const unsupportedFileToast = (): ToastSpec => errorToast({ title: UNSUPPORTED_FILE_TYPE_TITLE, description: UNSUPPORTED_FILE_TYPE_MESSAGE });

/** The toast for one uploaded file's outcome. */
export function uploadToast(fileName: string, outcome: UploadOutcome): ToastSpec {
  if (!outcome.ok) {
    if (outcome.status === 415) return unsupportedFileToast();
    return errorToast({ title: "Upload failed", description: outcome.error || UNEXPECTED_UPLOAD_ERROR });
  }
  const { body } = outcome;
  if (body.archive) {
    const { added, duplicates, skipped } = body.archive;
    const notes = [duplicates ? `${duplicates} already there` : "", skipped.length ? `${skipped.length} of other types left out` : ""].filter(Boolean);
    return {
      title: "Archive unpacked",
      description: `${fileName} became the folder ${body.file.name}: ${added} ${added === 1 ? "file" : "files"} added${notes.length ? ` (${notes.join(", ")})` : ""}.`,
    };
  }
  if (body.processingResult.error) return { title: "File saved but not processed", description: body.processingResult.error, variant: "warning" };
  if (body.status === "processing_in_background") {
    return { title: "File uploaded", description: `${fileName} is being processed in the background.` };
  }
  if (body.status === "duplicate") return { title: "File already added", description: `${fileName} is already in this folder, so it was not added again.` };
  return { title: "File uploaded", description: addedDescription(fileName, body.chunks_processed) };
}

export const addedDescription = (name: string, chunks: number) => `${name} was added (${countOf(chunks, "chunk")} processed).`;

/**
 * A link that could not be processed but was kept as a reference. One toast says both, because toasts show one
 * at a time: a second would replace 'Error processing URL' at once.
 */
export const urlReferenceToast = (reason: string): ToastSpec =>
  errorToast({ title: "Error processing URL", description: reason ? `${URL_REFERENCE_TITLE}. ${reason}` : URL_REFERENCE_TITLE });
