// Runs in a worker thread (parse-office.ts starts it): officeparser unzips and parses XML synchronously, so it does
// that here; only the plain AST goes back. Slide masters, comments, headers and footers are template or margin
// text, not the document's content.
import { OfficeParser } from "officeparser";
import { replyToParent } from "./reply-to-parent.ts";

/** The part of officeparser's AST we read. */
export interface OfficeNode {
  type: string;
  text?: string;
  children?: OfficeNode[];
  notes?: OfficeNode[];
  metadata?: { slideNumber?: number; level?: number; listType?: "ordered" | "unordered"; indentation?: number; itemIndex?: number };
}

export interface OfficeThreadData {
  bytes: Uint8Array;
  fileType: "pptx" | "odp" | "odt";
}

replyToParent(async ({ bytes, fileType }: OfficeThreadData): Promise<OfficeNode[]> => {
  const ast = await OfficeParser.parseOffice(Buffer.from(bytes), {
    fileType,
    ignoreNotes: false,
    ignoreComments: true,
    ignoreHeadersAndFooters: true,
    ignoreSlideMasters: true,
    extractAttachments: false,
    includeRawContent: false,
    ocr: false,
    decompressionLimits: { maxUncompressedBytes: 256 * 1024 * 1024, maxZipEntries: 10000 },
  });
  return JSON.parse(JSON.stringify(ast.content)) as OfficeNode[];
});
