import type { ChannelFormat } from "./render-messages.ts";

/** Plain text for an e-mail's body: links written out after their words, code indented, quotes marked with ">". */
export const plainText: ChannelFormat = {
  span(span) {
    // A citation's number stays a number: the message ends with its sources, written out.
    if (span.link && /^\[\d+\]$/.test(span.text)) return span.text;
    if (span.link && span.link !== span.text && /^(https?:|mailto:)/i.test(span.link)) return `${span.text} <${span.link}>`;
    return span.text;
  },
  code: (text) =>
    text
      .split("\n")
      .map((line) => `    ${line}`)
      .join("\n"),
  quote: (rendered) =>
    rendered
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n"),
  rule: "----",
  blockSeparator: "\n\n",
};
