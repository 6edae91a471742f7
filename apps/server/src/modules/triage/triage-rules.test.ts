import { describe, expect, it } from "vitest";
import { decide, readRule, type RuleMail } from "./triage-rules.ts";

const mail = (overrides: Partial<RuleMail> = {}): RuleMail => ({
  fromName: "Ravi Patel",
  fromAddress: "ravi@acme.example",
  subject: "Quarterly numbers",
  sender: null,
  ...overrides,
});

describe("readRule", () => {
  it("reads the sentences an executive writes, and says how it read each", () => {
    expect(readRule("Anything from the board is urgent.")).toMatchObject({
      condition: { kind: "from", who: "board" },
      effect: { kind: "urgent", value: true },
      meaning: 'Mail from "board" (a name, address, organisation, role or contact group) is marked urgent.',
    });
    expect(readRule("Newsletters never need a reply")).toMatchObject({
      condition: { kind: "label", label: "newsletter" },
      effect: { kind: "not-label", label: "needs-reply" },
      meaning: 'Newsletters and mailings never go under "Needs your reply".',
    });
    expect(readRule("mail from @acme.example always needs a reply")).toMatchObject({ condition: { who: "@acme.example" }, effect: { label: "needs-reply" } });
    expect(readRule("Emails about the merger are urgent")).toMatchObject({ condition: { kind: "about", words: "merger" } });
    expect(readRule("Anything from my mother is never urgent")).toMatchObject({ condition: { who: "mother" }, effect: { value: false } });
    expect(readRule("notifications are automated")).toMatchObject({ condition: { kind: "label", label: "automated" }, effect: { label: "automated" } });
  });

  it("leaves a sentence it cannot read to the model", () => {
    expect(readRule("Be gentle with people from the Zurich office")).toBeNull();
    expect(readRule("mail from is urgent")).toBeNull();
  });
});

describe("decide", () => {
  const rules = ["anything from the board is urgent", "newsletters never need a reply", "anything from the board is never urgent"].map((text) =>
    readRule(text)!,
  );

  it("matches a sender by their contact group, role or organisation, the first rule winning", () => {
    const board = mail({ sender: { name: "Ravi Patel", organisation: "Acme", role: null, groups: ["Board"] } });
    expect(decide(rules, board).urgent).toEqual({ value: true, rule: "anything from the board is urgent" });
    expect(decide(rules, mail({ sender: { name: "Ravi", organisation: null, role: "Board member", groups: [] } })).urgent?.value).toBe(true);
    expect(decide(rules, mail()).urgent).toBeUndefined();
  });

  it("applies rules about the kind of mail only once the model has seen it, with the fallback label", () => {
    expect(decide(rules, mail()).notLabels).toEqual([]);
    const after = decide(rules, mail(), { label: "needs-reply", bulk: true, machine: false });
    expect(after.notLabels).toEqual([{ value: "needs-reply", rule: "newsletters never need a reply", instead: "newsletter" }]);
    expect(decide(rules, mail(), { label: "needs-reply", bulk: false, machine: false }).notLabels).toEqual([]);
  });
});
