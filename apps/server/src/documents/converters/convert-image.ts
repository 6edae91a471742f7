import { ConversionError, type ExtractedDocument, type ExtractedSection } from "../extracted-document.ts";
import { MIN_OCR_CONFIDENCE, OCR_LIMITS, OcrError, recognizeText, type OcrLimits } from "../ocr/ocr-engine.ts";
import type { GrayImage } from "../ocr/ocr-protocol.ts";
import { readerFailure } from "./reader-failure.ts";
import { isMostlyUnreadable } from "./text-readability.ts";

export const NO_TEXT_IN_IMAGE_REASON = "No text was found in the image by text recognition (OCR).";
export const UNCLEAR_IMAGE_REASON =
  "The text in the image could not be read reliably: it may be blurred or faint, or in a language text recognition (OCR) does not read.";
/** A fax or scan TIFF can hold many pages; past this many the rest are not read. */
const MAX_IMAGE_PAGES = 500;
/** Refuse to decode images larger than this (decompression bombs); they are scaled down to OCR_LIMITS.maxPixels anyway. */
const MAX_INPUT_PIXELS = 200_000_000;
/** Screenshots carry small text; below this size an image is enlarged 2x, which Tesseract reads far better. */
const SMALL_IMAGE_SIDE = 1200;

/** png, jpg, tiff (every page) and webp, read by OCR. sharp decodes them in libuv's pool, off the event loop. */
export async function convertImage(bytes: Buffer, limits: Partial<OcrLimits> = {}): Promise<ExtractedDocument> {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  let pageCount: number;
  try {
    pageCount = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).pages ?? 1;
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message))
      throw new ConversionError(`The image is too large to read (over ${MAX_INPUT_PIXELS / 1e6} million pixels).`);
    throw readerFailure("The image", error);
  }
  const sections: ExtractedSection[] = [];
  const ocrPages: number[] = [];
  const ocrFailedPages: number[] = [];
  const ocrUnclearPages: number[] = [];
  const pages = Math.min(pageCount, MAX_IMAGE_PAGES);
  for (let page = 0; page < pages; page++) {
    let text: string;
    let confidence: number;
    try {
      ({ text, confidence } = await recognizeText(await grayImage(sharp, bytes, page, { ...OCR_LIMITS, ...limits }.maxPixels), limits));
    } catch (error) {
      if (!(error instanceof OcrError)) throw readerFailure("The image", error);
      ocrFailedPages.push(page + 1);
      continue;
    }
    if (!text || isMostlyUnreadable(text)) continue;
    if (confidence < MIN_OCR_CONFIDENCE) {
      ocrUnclearPages.push(page + 1);
      continue;
    }
    sections.push({ source: pageCount > 1 ? `page ${page + 1}` : "", text });
    ocrPages.push(page + 1);
  }
  const document: ExtractedDocument = { sections, ocrPages };
  if (ocrFailedPages.length > 0) document.ocrFailedPages = ocrFailedPages;
  if (ocrUnclearPages.length > 0) document.ocrUnclearPages = ocrUnclearPages;
  if (sections.length === 0) document.notProcessedReason = ocrUnclearPages.length > 0 ? UNCLEAR_IMAGE_REASON : NO_TEXT_IN_IMAGE_REASON;
  return document;
}

/** One page as grey pixels on white (transparency flattened), turned upright by its EXIF orientation and sized for OCR. */
async function grayImage(sharp: (typeof import("sharp"))["default"], bytes: Buffer, page: number, maxPixels: number): Promise<GrayImage> {
  const open = () => sharp(bytes, { page, limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true });
  const { width, height } = (await open().metadata()).autoOrient;
  const scale = ocrScale(width, height, maxPixels);
  let pipeline = open().flatten({ background: "#ffffff" }).greyscale();
  if (scale !== 1) pipeline = pipeline.resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: "fill" });
  const { data, info: out } = await pipeline.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { width: out.width, height: out.height, data };
}

/** 2x for small images, less than 1 for ones over the pixel budget, else 1. */
export function ocrScale(width: number, height: number, maxPixels: number): number {
  const fit = Math.sqrt(maxPixels / (width * height));
  if (Math.max(width, height) < SMALL_IMAGE_SIDE) return Math.min(2, fit);
  return Math.min(1, fit);
}
