import { describe, expect, it } from "vitest";
import { conversationTitle, firstLine } from "./conversation-title.ts";

describe("conversationTitle", () => {
  it("takes the first line of the first message, without Markdown or trailing punctuation", () => {
    expect(conversationTitle("draft an email to Anna about the board meeting?\nThanks")).toBe("Draft an email to Anna about the board meeting");
    expect(conversationTitle("\n\n## **Q3 budget** review\n")).toBe("Q3 budget review");
    expect(conversationTitle("¿Qué tiempo hace en Zürich?")).toBe("¿Qué tiempo hace en Zürich");
  });

  it("cuts a long line at a word and says so", () => {
    const title = conversationTitle("Please prepare a detailed outline for next quarter's investor presentation with figures");
    expect(title).toBe("Please prepare a detailed outline for next…");
    expect(title.length).toBeLessThanOrEqual(49);
  });

  it("is empty when there are no words", () => {
    expect(conversationTitle("   \n ** \n")).toBe("");
  });
});

describe("firstLine", () => {
  it("answers the first non-empty line, shortened", () => {
    expect(firstLine("\n**Dear Anna,**\nthe board meets at 9.")).toBe("Dear Anna,");
    expect(firstLine("x".repeat(200))).toHaveLength(120);
    expect(firstLine("  ")).toBe("");
  });
});
