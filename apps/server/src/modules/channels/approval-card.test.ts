import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { APPROVAL_CARD_TEXTS } from "@sage/contracts/external-tools";
import { describe, expect, it } from "vitest";
import { telegramHtml } from "../../channels/format/telegram-html.ts";
import { renderMessages } from "../../channels/format/render-messages.ts";
import { approvalCardMarkdown, cardButtonData, contentDerived, parseCardButton } from "./approval-card.ts";
import { codeIn, looksLikeCode, newPairingCode, pairingHash } from "./pairing-code.ts";

describe("an approval card in a chat", () => {
  it("says a content-derived card is one, and shows what SAGE would do and the whole content, every value literally", () => {
    const markdown = approvalCardMarkdown({
      approvalId: "a1",
      name: "sendEmail",
      args: { to: ["anna@example.com", "dan@example.com"], cc: [], subject: "Q3 *numbers* [1]", body: "Hi Anna,\n\nthe figures: <b>12%</b> & rising.\n\nBest" },
      risk: "content-derived",
      provenance: {},
      reason: "This request follows text from memo.txt",
    });
    const [html] = renderMessages(markdown, telegramHtml, 4096);
    expect(html).toBe(
      [
        `<b>${APPROVAL_CARD_TEXTS.contentDerivedTitle}</b>`,
        "<b>Send this e-mail</b>",
        "<i>This request follows text from memo.txt</i>",
        "<b>To:</b> anna@example.com, dan@example.com",
        "<b>Subject:</b> Q3 *numbers* [1]",
        "<blockquote>Hi Anna,</blockquote>",
        "<blockquote>the figures: &lt;b&gt;12%&lt;/b&gt; &amp; rising.</blockquote>",
        "<blockquote>Best</blockquote>",
      ].join("\n\n"),
    );
  });

  it("carries the approval and the answer in its buttons, within Telegram's 64 bytes", () => {
    const id = "8b05f8e2-951f-4967-8e18-92137c12f132";
    for (const answer of ["y", "n", "c", "b"] as const) {
      expect(Buffer.byteLength(cardButtonData(id, answer))).toBeLessThanOrEqual(64);
      expect(parseCardButton(cardButtonData(id, answer))).toEqual({ approvalId: id, answer });
    }
    expect(parseCardButton("ap:x:1")).toBeNull();
    expect(parseCardButton("something else")).toBeNull();
  });

  it("asks for a second confirmation only for a request written from content SAGE read", () => {
    expect(contentDerived({ reason: "This request follows text from memo.txt and 2 more" })).toBe(true);
    expect(contentDerived({ reason: "SAGE was running a scheduled task on its own; nothing leaves SAGE without your approval." })).toBe(false);
    expect(contentDerived({})).toBe(false);
    expect(CHANNEL_TEXTS.cardTitle).not.toBe(APPROVAL_CARD_TEXTS.contentDerivedTitle);
    expect(contentDerived({ risk: "content-derived" })).toBe(true);
    expect(contentDerived({ risk: "asked", reason: "As you asked: to Emma Johnson <emma@example.com>" })).toBe(false);
    expect(contentDerived({ risk: "asked", reason: "This request follows text from memo.txt" })).toBe(true);
  });
});

describe("a pairing code", () => {
  it("is 8 characters that cannot be mistaken for each other, different each time, stored only as a hash", () => {
    const codes = new Set(Array.from({ length: 200 }, newPairingCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const [code] = [...codes];
    expect(pairingHash(1, code!)).toBe(pairingHash(1, code!.toLowerCase()));
    expect(pairingHash(1, code!)).not.toBe(pairingHash(2, code!));
    expect(pairingHash(1, code!)).not.toContain(code);
  });

  it("is read from the code alone or /start CODE, in any case", () => {
    expect(codeIn("K7M2QX4P")).toBe("K7M2QX4P");
    expect(codeIn("  /start k7m2qx4p ")).toBe("K7M2QX4P");
    expect(codeIn("/start@SageBot K7M2QX4P")).toBe("K7M2QX4P");
    expect(codeIn("my code is K7M2QX4P")).toBeNull();
    expect(codeIn("/start")).toBeNull();
    expect(looksLikeCode("/start nope")).toBe(true);
    expect(looksLikeCode("/start")).toBe(false);
    expect(looksLikeCode("hello there")).toBe(false);
  });
});
