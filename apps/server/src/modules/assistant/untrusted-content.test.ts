import { describe, expect, it } from "vitest";
import { createUntrustedContent, followsText, wordsNotTyped, words } from "./untrusted-content.ts";

describe("untrusted content in a turn", () => {
  it("lets every call through while the turn has read nothing the user did not type", () => {
    const turn = createUntrustedContent(["What is the status of flight LX318?"]);
    expect(turn.tainted).toBe(false);
    expect(turn.approvalReason({ flight: "EXFIL-user-memory-bank-login-hunter2" })).toBeNull();
  });

  it("after a document was read, asks for Approve when a call would send words the user never typed", () => {
    const turn = createUntrustedContent(["Summarise the memo", "What is the status of flight LX318?"]);
    turn.read("kilimanjaro-memo.txt");
    expect(turn.approvalReason({ flight: "EXFIL-user-memory-bank-login-hunter2" })).toBe("This request follows text from kilimanjaro-memo.txt");
    // The user's own words may go out: they typed them for this.
    expect(turn.approvalReason({ flight: "lx318" })).toBeNull();
    expect(turn.approvalReason({ query: "Flight LX318 status", options: { limit: 3 } })).toBe("This request follows text from kilimanjaro-memo.txt");
  });

  it("finds words hidden deep in nested arguments, folded like search folds them", () => {
    const typed = new Set(words("Book the Zürich office"));
    expect(wordsNotTyped({ a: [{ b: "zurich OFFICE" }] }, typed)).toEqual([]);
    expect(wordsNotTyped({ a: [{ b: ["office", { c: "door 4711" }] }] }, typed)).toEqual(["door", "4711"]);
  });

  it("names at most two sources on the card", () => {
    expect(followsText([{ label: "a.txt" }, { label: "b.pdf" }, { label: "web page example.com" }])).toBe(
      "This request follows text from a.txt and b.pdf and 1 more",
    );
    const turn = createUntrustedContent([]);
    turn.read("a.txt");
    turn.read("a.txt");
    expect(turn.sources()).toEqual([{ label: "a.txt" }]);
  });
});
