/** A converter's output: text split by where it came from (a page, a section heading, or nothing). */
export interface ExtractedSection {
  /** 'page 3', a heading, or '' when the format has no natural unit. */
  source: string;
  text: string;
}

export interface ExtractedDocument {
  sections: ExtractedSection[];
  /** Set when nothing usable was extracted: the item is kept, with this reason shown to the user. */
  notProcessedReason?: string;
  /** Pages (1-based) whose text came from text recognition: scanned pages, images, pages with unreadable text. */
  ocrPages?: number[];
  /** Pages that text recognition gave up on (over its time limit or failed); their text is missing. */
  ocrFailedPages?: number[];
  /** Set when only the first `read` of its `total` pages were read (the page limit): the rest is not searchable. */
  pagesNotRead?: { read: number; total: number };
  /** Pages text recognition read with too little confidence to keep (a poor scan, an unknown script); their text is left out. */
  ocrUnclearPages?: number[];
  /** Files carried inside the document (e-mail attachments) whose type we convert, to become child items. */
  attachments?: ExtractedAttachment[];
  /** Attachments of types we convert that were listed but not handed on (issue 52 item 6). */
  attachmentsNotRead?: AttachmentsNotRead;
}

export interface AttachmentsNotRead {
  /** Attachments of types SAGE reads, in all. */
  total: number;
  /** Left out past the count limit... */
  overCount: number;
  maxAttachments: number;
  /** ...and those larger than one upload may be. */
  tooLarge: Array<{ filename: string; bytes: number }>;
  maxBytes: number;
}

export interface ExtractedAttachment {
  filename: string;
  bytes: Buffer;
  /** The message the attachment came from, for an mbox ('message 3'); absent for a single e-mail. */
  source?: string;
}

/**
 * Thrown for documents that cannot be read at all (corrupt, encrypted, wrong type). Its message is shown to the user
 * in plain words; `detail` keeps a library's own text for the server's log, never shown.
 */
export class ConversionError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Splits markdown-like text into sections at headings ('# Title' lines); text before the first heading has no source. */
export function sectionsFromMarkdown(markdown: string): ExtractedSection[] {
  const sections: ExtractedSection[] = [];
  let current: ExtractedSection = { source: "", text: "" };
  for (const line of markdown.split("\n")) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      if (current.text.trim()) sections.push(current);
      current = { source: heading[1]!.replace(/\//g, "-").slice(0, 200), text: `${line}\n` };
      continue;
    }
    current.text += `${line}\n`;
  }
  if (current.text.trim()) sections.push(current);
  return sections.map((section) => ({ ...section, text: section.text.trim() }));
}

export function documentFromText(text: string, emptyReason: string): ExtractedDocument {
  const sections = sectionsFromMarkdown(text);
  return sections.length > 0 ? { sections } : { sections: [], notProcessedReason: emptyReason };
}
