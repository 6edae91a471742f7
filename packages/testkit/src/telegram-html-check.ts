/** Tags Telegram's HTML parse mode takes (core.telegram.org/bots/api#html-style), with the attributes each may have. */
const TAGS: Record<string, RegExp> = {
  b: /^$/,
  strong: /^$/,
  i: /^$/,
  em: /^$/,
  u: /^$/,
  ins: /^$/,
  s: /^$/,
  strike: /^$/,
  del: /^$/,
  span: /^class="tg-spoiler"$/,
  "tg-spoiler": /^$/,
  a: /^href="[^"]*"$/,
  code: /^(class="language-[\w+#-]+")?$/,
  pre: /^$/,
  blockquote: /^(expandable)?$/,
  "tg-emoji": /^emoji-id="\d+"$/,
};

const ENTITY = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/i;
const decode = (entity: string) =>
  ({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"' })[entity.toLowerCase()] ??
  String.fromCodePoint(entity[2]?.toLowerCase() === "x" ? parseInt(entity.slice(3, -1), 16) : Number(entity.slice(2, -1)));

/**
 * Parses text as Telegram's HTML mode does and answers the visible text, or throws Telegram's own words for what it
 * refuses: an unknown tag, a tag left open or closed out of order, a bare "<" or "&".
 */
export function parseTelegramHtml(html: string): string {
  const open: string[] = [];
  let text = "";
  let index = 0;
  while (index < html.length) {
    const char = html[index]!;
    if (char === "&") {
      const entity = ENTITY.exec(html.slice(index));
      if (!entity)
        throw new Error(`Bad Request: can't parse entities: Character '&' is reserved and must be escaped with the preceding '\\' at byte offset ${index}`);
      text += decode(entity[0]);
      index += entity[0].length;
      continue;
    }
    if (char === ">") throw new Error(`Bad Request: can't parse entities: Character '>' is reserved at byte offset ${index}`);
    if (char !== "<") {
      text += char;
      index++;
      continue;
    }
    const end = html.indexOf(">", index);
    if (end < 0) throw new Error(`Bad Request: can't parse entities: Unclosed start tag at byte offset ${index}`);
    const inside = html.slice(index + 1, end);
    const closing = inside.startsWith("/");
    const [name = "", ...rest] = (closing ? inside.slice(1) : inside).split(/\s+/);
    const attributes = rest.join(" ");
    const tag = name.toLowerCase();
    if (!(tag in TAGS)) throw new Error(`Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${index}`);
    if (closing) {
      if (open.at(-1) !== tag)
        throw new Error(`Bad Request: can't parse entities: Unmatched end tag at byte offset ${index}, expected "</${open.at(-1) ?? ""}>", found "</${tag}>"`);
      open.pop();
    } else {
      if (!TAGS[tag]!.test(attributes)) throw new Error(`Bad Request: can't parse entities: Unsupported attribute in tag "${tag}" at byte offset ${index}`);
      open.push(tag);
    }
    index = end + 1;
  }
  if (open.length > 0) throw new Error(`Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"`);
  return text;
}
