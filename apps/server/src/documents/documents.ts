import { chunkSections, type Chunk } from "./chunker.ts";
import { createConversionPool, type ConversionPoolOptions, type ConvertedDocument } from "./conversion-pool.ts";
import type { ConversionInput } from "./convert-input.ts";
import type { ConversionError } from "./extracted-document.ts";
import { sectionsFromMarkdown } from "./extracted-document.ts";
import { closeOcr } from "./ocr/ocr-engine.ts";

export type { Chunk } from "./chunker.ts";
export { CANCELLED_REASON, type ConvertedDocument } from "./conversion-pool.ts";
export type { ConversionInput } from "./convert-input.ts";
export { downloadContentType } from "./download-content-type.ts";
export { ConversionError, type ExtractedAttachment } from "./extracted-document.ts";
export { supportedExtension, type UploadExtension } from "./upload-extension.ts";

export type DocumentReaderOptions = ConversionPoolOptions;

/** Notes up to this size are chunked on the server's thread (well under a millisecond); larger ones go to a process. */
export const NOTE_INLINE_MAX_BYTES = 32_768;

/**
 * A short note's chunks, cut here as the conversion process would cut them: a note is the user's own text, with no
 * parser to protect the server from, and a process round trip behind a large document made a note wait seconds
 * (issue 35). Null for a note that is too long for this, or has no text.
 */
export function chunkShortNote(text: string): Chunk[] | null {
  if (Buffer.byteLength(text) > NOTE_INLINE_MAX_BYTES) return null;
  const chunks = chunkSections(sectionsFromMarkdown(text));
  return chunks.length > 0 ? chunks : null;
}

/**
 * Reads untrusted documents (stored uploads, fetched pages, notes) into chunks: the face of documents/, the only file
 * the rest of the server uses. Each document is read in a separate process with memory and time limits
 * (conversion-pool.ts), by one converter per type (converters/), scans by text recognition in a process of its own
 * (ocr/). Nothing in documents/ knows of knowledge items, users or the store; lint keeps modules/ out of it.
 */
export interface DocumentReader {
  /**
   * Reads a document into chunks. With `onChunks`, each slice of chunks is handed over as it arrives (so storing
   * them can start while the rest is read) and the document resolves with `chunks` empty. Aborting `signal` (its
   * item was deleted) kills the reader and rejects with CANCELLED_REASON.
   */
  convert(input: ConversionInput, onChunks?: (chunks: Chunk[]) => void, signal?: AbortSignal): Promise<ConvertedDocument>;
  /**
   * Reads small documents (a batch of mails) in one round trip: each one's document or the ConversionError it
   * alone failed with, in order. Rejects only when the reader died; read them one by one then to learn which.
   */
  convertMany(inputs: ConversionInput[], signal?: AbortSignal): Promise<Array<ConvertedDocument | ConversionError>>;
  /** Ends every process reading documents (the server is shutting down). */
  close(): Promise<void>;
}

export function createDocumentReader(options: DocumentReaderOptions): DocumentReader {
  const pool = createConversionPool(options);
  return {
    convert: (input, onChunks, signal) => pool.convert(input, onChunks, signal),
    convertMany: (inputs, signal) => pool.convertMany(inputs, signal),
    async close() {
      await pool.close();
      // Text recognition run in this process (tests, scripts) ends too, rather than waiting for its idle timeout.
      await closeOcr();
    },
  };
}
