/** The OCR process's one argument (as JSON): each language's data file, in order of preference, and the orientation data. */
export interface OcrProcessData {
  languages: Array<{ code: string; file: string }>;
  /** A folder of links named <code>.traineddata.gz, the orientation data's ("osd") among them. */
  languageFolder: string;
}

/** What the OCR engine (ocr-engine.ts) and the OCR process (ocr-process.entry.ts) say to each other over IPC. */

/** 8-bit grey pixels, row by row. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type OcrRequest =
  | { type: "recognize"; image: GrayImage }
  /** Opens a PDF for page rendering: its bytes, or a stored upload's path (read a range at a time). */
  | { type: "open-pdf"; documentId: number; bytes?: Uint8Array; path?: string }
  | { type: "pdf-page"; documentId: number; pageNumber: number; dpi: number; maxPixels: number; onlyWithImages: boolean }
  | { type: "close-pdf"; documentId: number };

/** One reply per request, by id: the text read, a page skipped (nothing worth reading), a PDF's page count, or why it failed. */
export interface OcrReply {
  id: number;
  error?: string;
  text?: string;
  /** Tesseract's mean word confidence for the text, 0-100 (0 when it found no words). */
  confidence?: number;
  skipped?: boolean;
  pages?: number;
}
