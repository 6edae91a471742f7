import type { ChannelFormat } from "./render-messages.ts";

/** Telegram's HTML parse mode: only &, < and > are escaped in text, and " too inside an attribute. */
export const escapeTelegramHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Links Telegram opens; any other scheme (javascript:, data:) is shown as text. */
const SAFE_LINK = /^(https?:|mailto:|tg:)/i;

/**
 * Telegram Bot API `parse_mode: "HTML"` (core.telegram.org/bots/api#html-style): <b>, <i>, <s>, <code>, <pre>,
 * <a href>, <blockquote>. Lists and headings have no tags: bullets and bold.
 */
export const telegramHtml: ChannelFormat = {
  span(span) {
    let text = escapeTelegramHtml(span.text);
    if (span.code) text = `<code>${text}</code>`;
    if (span.bold) text = `<b>${text}</b>`;
    if (span.italic) text = `<i>${text}</i>`;
    if (span.strike) text = `<s>${text}</s>`;
    if (span.link && SAFE_LINK.test(span.link)) text = `<a href="${escapeTelegramHtml(span.link).replace(/"/g, "&quot;")}">${text}</a>`;
    return text;
  },
  code: (text, language) =>
    language && /^[\w+#-]{1,30}$/.test(language)
      ? `<pre><code class="language-${language}">${escapeTelegramHtml(text)}</code></pre>`
      : `<pre>${escapeTelegramHtml(text)}</pre>`,
  quote: (rendered) => `<blockquote>${rendered}</blockquote>`,
  rule: "———",
  blockSeparator: "\n\n",
};
