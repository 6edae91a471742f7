import { BRIEFING_TEXTS } from "@sage/contracts/schedules";
import type { Citation } from "@sage/contracts/conversations";

/** One line and where it comes from; a line with no source is marked as such. */
export interface CitedLine {
  text: string;
  source: Omit<Citation, "n"> | null;
}

export interface CitedSection {
  heading: string;
  lines: CitedLine[];
  /** A sentence in place of lines (no calendar connected), not counted as a line. */
  note?: string;
  /** Lines left out to keep the text short. */
  more?: number;
}

/**
 * Keeps each section to its share, then the whole to `maxLines`, in section order (the briefing and the weekly review
 * are short by design); what is left out is counted in `more`.
 */
export function trimSections(sections: CitedSection[], maxLines: number, share: (section: CitedSection) => number): void {
  let room = maxLines;
  for (const section of sections) {
    const kept = Math.min(section.lines.length, share(section), room);
    section.more = section.lines.length - kept;
    section.lines = section.lines.slice(0, kept);
    room -= kept;
  }
}

/** The sections as Markdown, every line citing its source as [n] (numbered in order) or saying it has none. */
export function citedMarkdown(sections: readonly CitedSection[]): { body: string[]; citations: Citation[]; hasLines: boolean } {
  const citations: Citation[] = [];
  const cite = (source: CitedLine["source"]) => {
    if (!source) return ` _${BRIEFING_TEXTS.noSource}_`;
    const n = citations.length + 1;
    citations.push({ n, ...source });
    return ` [${n}]`;
  };
  const body: string[] = [];
  for (const section of sections) {
    if (section.lines.length === 0 && !section.note) continue;
    body.push(`### ${section.heading}`);
    if (section.note) body.push(`_${section.note}_`);
    for (const line of section.lines) body.push(`- ${line.text}${cite(line.source)}`);
    if (section.more) body.push(`- _${BRIEFING_TEXTS.more(section.more)}_`);
    body.push("");
  }
  return { body, citations, hasLines: sections.some((section) => section.lines.length > 0) };
}
