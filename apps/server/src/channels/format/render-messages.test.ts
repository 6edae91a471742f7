import { describe, expect, it } from "vitest";
import { parseTelegramHtml } from "@sage/testkit/telegram-html-check";
import { plainText } from "./plain-text.ts";
import { renderMessages } from "./render-messages.ts";
import { slackMrkdwn } from "./slack-mrkdwn.ts";
import { telegramHtml } from "./telegram-html.ts";

describe("SAGE's Markdown in a chat's own format", () => {
  const markdown = [
    "## Q3 *plan*",
    "Revenue **grew 12%** (a <record> & more), see [the memo](https://example.com/memo?a=1&b=2) [1].",
    "- first `x < y`",
    "- second ~~old~~",
    "> quoted line",
    "```ts\nconst a = 1 < 2 && b;\n```",
  ].join("\n\n");
  const cite = (n: number) => (n === 1 ? "https://sage.example.com/conversations/7" : undefined);

  it("writes Telegram HTML: tags Telegram takes, every <, > and & escaped, citations as links", () => {
    const [html] = renderMessages(markdown, telegramHtml, 4096, cite);
    expect(html).toBe(
      [
        "<b>Q3 </b><i><b>plan</b></i>",
        'Revenue <b>grew 12%</b> (a &lt;record&gt; &amp; more), see <a href="https://example.com/memo?a=1&amp;b=2">the memo</a> <a href="https://sage.example.com/conversations/7">[1]</a>.',
        "• first <code>x &lt; y</code>",
        "• second <s>old</s>",
        "<blockquote>quoted line</blockquote>",
        '<pre><code class="language-ts">const a = 1 &lt; 2 &amp;&amp; b;</code></pre>',
      ].join("\n\n"),
    );
    // Telegram's own parser takes it (the emulator's check is Telegram's rules).
    expect(parseTelegramHtml(html!)).toContain("Revenue grew 12% (a <record> & more)");
  });

  it("writes Slack mrkdwn: *bold*, _italic_, <url|label> links, and only &, < and > escaped", () => {
    const [text] = renderMessages(markdown, slackMrkdwn, 3000, cite);
    expect(text).toBe(
      [
        "*Q3* _*plan*_",
        "Revenue *grew 12%* (a &lt;record&gt; &amp; more), see <https://example.com/memo?a=1&amp;b=2|the memo> <https://sage.example.com/conversations/7|[1]>.",
        "• first `x &lt; y`",
        "• second ~old~",
        "> quoted line",
        "```\nconst a = 1 &lt; 2 &amp;&amp; b;\n```",
      ].join("\n\n"),
    );
  });

  it("writes plain text for mail: links after their words, citations as numbers", () => {
    const [text] = renderMessages(markdown, plainText, 100_000, cite);
    expect(text).toContain("see the memo <https://example.com/memo?a=1&b=2> [1].");
    expect(text).toContain("> quoted line");
    expect(text).toContain("    const a = 1 < 2 && b;");
  });

  it("never links a javascript: address, and leaves a number that is not a citation as it is", () => {
    const [html] = renderMessages("[click](javascript:alert(1)) and [2]", telegramHtml, 4096, cite);
    expect(html).toBe("click and [2]");
  });

  it("splits at sentence ends, keeps each piece within the limit and a whole block where it fits", () => {
    const sentences = Array.from({ length: 40 }, (_, index) => `Sentence ${index + 1} is here.`);
    const messages = renderMessages(`Intro.\n\n${sentences.join(" ")}\n\nOutro.`, telegramHtml, 120);
    for (const message of messages) expect(message.length).toBeLessThanOrEqual(120);
    expect(messages[0]).toBe("Intro.");
    for (const message of messages.slice(1, -1)) expect(message.trim()).toMatch(/^Sentence \d+ is here\.( Sentence \d+ is here\.)*$/);
    expect(messages.join(" ").replace(/\s+/g, " ")).toBe(`Intro. ${sentences.join(" ")} Outro.`);
  });

  it("keeps tags balanced in every piece of a split paragraph, and cuts a sentence longer than a message at words", () => {
    const long = `**${"word ".repeat(60).trim()}.** Next sentence.`;
    const messages = renderMessages(long, telegramHtml, 100);
    for (const message of messages) {
      expect(message.length).toBeLessThanOrEqual(100);
      expect(() => parseTelegramHtml(message)).not.toThrow();
    }
    expect(
      messages
        .map((message) => parseTelegramHtml(message))
        .join("")
        .replace(/\s+/g, " "),
    ).toBe(`${"word ".repeat(60).trim()}. Next sentence.`);
  });

  it("cuts a code block at line ends, each piece a code block of its own", () => {
    const code = Array.from({ length: 30 }, (_, index) => `line ${index}`).join("\n");
    const messages = renderMessages(`\`\`\`\n${code}\n\`\`\``, telegramHtml, 80);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(message).toMatch(/^<pre>[\s\S]*<\/pre>$/);
    expect(messages.map((message) => message.slice(5, -6)).join("\n")).toBe(code);
  });
});
