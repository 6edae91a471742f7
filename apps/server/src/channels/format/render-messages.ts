import { cutSpans, markdownBlocks, sentenceEnds, spansText, wordEnds, type Block, type Span } from "./markdown-blocks.ts";

/** How one service writes formatted text (Telegram HTML, Slack mrkdwn, plain text for mail). */
export interface ChannelFormat {
  /** One run of text with its marks, escaped. */
  span(span: Span): string;
  /** A code block's text, escaped and wrapped. */
  code(text: string, language?: string): string;
  /** Lines quoted (a blockquote). */
  quote(rendered: string): string;
  rule: string;
  /** Between two blocks in one message. */
  blockSeparator: string;
}

const renderSpans = (format: ChannelFormat, spans: readonly Span[]) => spans.map((span) => format.span(span)).join("");

function renderBlock(format: ChannelFormat, block: Block): string {
  if (block.kind === "rule") return format.rule;
  if (block.kind === "code") return format.code(block.text, block.language);
  const text = `${block.prefix ? format.span({ text: block.prefix }) : ""}${renderSpans(format, block.spans)}`;
  return block.quote ? format.quote(text) : text;
}

/**
 * A block too long for one message, as pieces that each fit: a text block at sentence ends (words, then characters
 * when a sentence alone is too long), a code block at line ends, each piece written as a whole block of its own.
 */
function splitBlock(format: ChannelFormat, block: Block, limit: number): string[] {
  if (block.kind === "rule") return [format.rule];
  if (block.kind === "code") {
    const pieces: string[] = [];
    let lines: string[] = [];
    const fits = (candidate: string[]) => format.code(candidate.join("\n"), block.language).length <= limit;
    for (const line of block.text.split("\n")) {
      if (fits([...lines, line])) {
        lines.push(line);
        continue;
      }
      if (lines.length > 0) pieces.push(format.code(lines.join("\n"), block.language));
      let rest = line;
      // A single line longer than a message: cut by characters.
      while (!fits([rest])) {
        let size = rest.length;
        while (size > 1 && !fits([rest.slice(0, size)])) size = Math.floor(size * 0.9);
        pieces.push(format.code(rest.slice(0, size), block.language));
        rest = rest.slice(size);
      }
      lines = [rest];
    }
    if (lines.length > 0) pieces.push(format.code(lines.join("\n"), block.language));
    return pieces;
  }
  const render = (spans: Span[], first: boolean) => renderBlock(format, { ...block, spans, ...(first ? {} : { prefix: undefined }) });
  const text = spansText(block.spans);
  const out: string[] = [];
  let first = true;
  /** Packs pieces of spans into blocks that fit, cutting a piece that alone does not fit at `finer` ends. */
  const pack = (pieces: Span[][], finer: ((text: string) => number[]) | null) => {
    let current: Span[] = [];
    const flush = () => {
      if (current.length === 0) return;
      out.push(render(current, first));
      first = false;
      current = [];
    };
    for (const piece of pieces) {
      if (render([...current, ...piece], first).length <= limit) {
        current.push(...piece);
        continue;
      }
      flush();
      if (render(piece, first).length <= limit) {
        current = [...piece];
        continue;
      }
      if (finer) {
        pack(cutSpans(piece, finer(spansText(piece))), null);
        continue;
      }
      // One word longer than a message (a long address): cut it by characters.
      let rest = piece;
      while (render(rest, first).length > limit) {
        let size = spansText(rest).length;
        while (size > 1 && render(cutSpans(rest, [size])[0]!, first).length > limit) size = Math.floor(size * 0.9);
        const [head, ...tail] = cutSpans(rest, [size]);
        out.push(render(head!, first));
        first = false;
        rest = tail.flat();
      }
      current = rest;
    }
    flush();
  };
  pack(cutSpans(block.spans, sentenceEnds(text)), wordEnds);
  return out;
}

/**
 * SAGE's Markdown as messages of one service: formatted and escaped by `format`, each at most `limit` characters,
 * blocks kept whole where they fit and long ones cut at sentence ends. `cite` turns [n] into links.
 */
export function renderMessages(markdown: string, format: ChannelFormat, limit: number, cite?: (n: number) => string | undefined): string[] {
  const messages: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) messages.push(current);
    current = "";
  };
  for (const block of markdownBlocks(markdown, cite)) {
    const rendered = renderBlock(format, block);
    const joined = current ? `${current}${format.blockSeparator}${rendered}` : rendered;
    if (joined.length <= limit) {
      current = joined;
      continue;
    }
    flush();
    if (rendered.length <= limit) {
      current = rendered;
      continue;
    }
    const pieces = splitBlock(format, block, limit);
    messages.push(...pieces.slice(0, -1));
    current = pieces.at(-1) ?? "";
  }
  flush();
  return messages;
}
