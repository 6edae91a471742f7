import { tmpdir } from "node:os";
import path from "node:path";
import { eachChunk, type Chunk } from "./chunker.ts";
import { encodeChunks } from "./chunk-wire.ts";
import { convertInput, type ConversionInput, type ConversionLimits } from "./convert-input.ts";
import { prepareSpareReaders } from "./converters/convert-pdf.ts";
import { dieWithParent } from "./die-with-parent.ts";
import { ConversionError, type AttachmentsNotRead, type ExtractedAttachment } from "./extracted-document.ts";
import { ocrProgress } from "./ocr/ocr-engine.ts";
import { tooLargeToProcess } from "./zip-expansion.ts";

/**
 * The conversion process: reads documents into chunks for the server, one request at a time, so a document that
 * exhausts memory, loops or crashes its parser takes down only this process (the pool in conversion-pool.ts
 * enforces the limits and starts another). Started by the pool with `fork`; speaks over the IPC channel.
 */
export type ConversionRequest = {
  id: number;
  limits: ConversionLimits & { maxTextBytes: number };
} & (
  | { input: ConversionInput }
  /** Small documents read one after another and answered together (a mail sync's batch): one round trip. */
  | { batch: ConversionInput[] }
);

/** What a document gave besides its chunks (see ExtractedDocument). */
export interface ConversionExtras {
  notProcessedReason?: string;
  pagesNotRead?: { read: number; total: number };
  ocrPages?: number[];
  ocrFailedPages?: number[];
  ocrUnclearPages?: number[];
  attachments?: ExtractedAttachment[];
  attachmentsNotRead?: AttachmentsNotRead;
}

export type ConversionReply =
  | { type: "ready" }
  /** A slice of the chunks, in order, as chunk-wire.ts encodes them. */
  | { id: number; type: "chunks"; bytes: Uint8Array }
  /** One more page read by text recognition: the document is still moving (resets the pool's time limit). */
  | { id: number; type: "progress" }
  | ({ id: number; type: "done" } & ConversionExtras)
  | { id: number; type: "error"; message: string; detail?: string }
  /** A batch's documents in the order asked, each its chunks (chunk-wire.ts) or why it failed. */
  | { id: number; type: "batch-done"; results: BatchResult[] };

export type BatchResult = ({ type: "done"; bytes: Uint8Array } & ConversionExtras) | { type: "error"; message: string; detail?: string };

/**
 * Chunks go back in slices of at most this size, so the server never decodes one huge message in a single turn.
 * The first slice is small and each next one twice the size: the server starts storing after the first few
 * chunks instead of waiting for 256 KB of them to be cut (about 15 ms of a 0.9 MB note's job).
 */
const SLICE_BYTES = 256 * 1024;
const FIRST_SLICE_BYTES = 16 * 1024;

const send = (reply: ConversionReply) => process.send!(reply);

/** Why a document failed, as the server shows it; the detail (a parser's own words) goes only to the log. */
function failure(error: unknown): { message: string; detail?: string } {
  const detail = error instanceof ConversionError ? error.detail : undefined;
  return { message: error instanceof Error ? error.message : String(error), ...(detail ? { detail } : {}) };
}

/** One document's sections and what else its converter found, checked against the text limit. */
async function read(input: ConversionInput, limits: ConversionRequest["limits"]) {
  const document = await convertInput(input, limits);
  const { notProcessedReason, ocrPages, ocrFailedPages, ocrUnclearPages, attachments, pagesNotRead, attachmentsNotRead } = document;
  const extras: ConversionExtras = { ocrPages, ocrFailedPages, ocrUnclearPages, attachments, pagesNotRead, attachmentsNotRead };
  if (notProcessedReason) return { extras: { ...extras, notProcessedReason }, sections: [] };
  const text = document.sections.reduce((sum, section) => sum + section.text.length, 0);
  if (text > limits.maxTextBytes) throw tooLargeToProcess(`it holds more than ${Math.round(limits.maxTextBytes / 1_048_576)} MB of text`);
  return { extras, sections: document.sections };
}

async function handleOne(id: number, input: ConversionInput, limits: ConversionRequest["limits"]) {
  try {
    const { extras, sections } = await read(input, limits);
    let slice: Chunk[] = [];
    let sliceBytes = 0;
    let sliceLimit = FIRST_SLICE_BYTES;
    for (const chunk of eachChunk(sections)) {
      slice.push(chunk);
      sliceBytes += chunk.content.length + chunk.source.length;
      if (sliceBytes >= sliceLimit) {
        send({ id, type: "chunks", bytes: encodeChunks(slice) });
        slice = [];
        sliceBytes = 0;
        sliceLimit = Math.min(SLICE_BYTES, sliceLimit * 2);
      }
    }
    if (slice.length > 0) send({ id, type: "chunks", bytes: encodeChunks(slice) });
    send({ id, type: "done", ...extras });
  } catch (error) {
    send({ id, type: "error", ...failure(error) });
  }
}

/** Each document of the batch in turn; one failing fails only itself. Progress after each keeps the time limit per document. */
async function handleBatch(id: number, batch: ConversionInput[], limits: ConversionRequest["limits"]) {
  const results: BatchResult[] = [];
  for (const input of batch) {
    try {
      const { extras, sections } = await read(input, limits);
      results.push({ type: "done", ...extras, bytes: encodeChunks([...eachChunk(sections)]) });
    } catch (error) {
      results.push({ type: "error", ...failure(error) });
    }
    send({ id, type: "progress" });
  }
  send({ id, type: "batch-done", results });
}

async function handle(request: ConversionRequest) {
  const { id, limits } = request;
  ocrProgress.onPage = () => send({ id, type: "progress" });
  try {
    await ("batch" in request ? handleBatch(id, request.batch, limits) : handleOne(id, request.input, limits));
  } finally {
    ocrProgress.onPage = undefined;
  }
}

process.on("message", (request: ConversionRequest) => void handle(request));
// The server's going away ends this process too, however busy it is. Its temp folder is its pool's
// (conversion-pool.ts), removed when this process ends; this process removes it when the server went first.
const ownTemp = tmpdir();
dieWithParent({ removeOnDeath: path.basename(ownTemp).startsWith("sage-conversion-") ? ownTemp : undefined });
send({ type: "ready" });
prepareSpareReaders();
