import { describe, expect, it } from "vitest";
import { answeredBy, repliedTo, workingDaysSince, type Header } from "./mail-threads.ts";

const header = (overrides: Partial<Header> & Pick<Header, "id">): Header => ({
  folder: "INBOX",
  subject: "Q3 budget",
  fromAddress: "Anna Berg <anna@acme.example>",
  toAddress: "exec@sage.example",
  date: "2026-12-01T09:00:00.000Z",
  messageId: `<m${overrides.id}@x>`,
  threadReferences: null,
  ...overrides,
});
const own = new Set(["exec@sage.example"]);

describe("mail threads", () => {
  it("counts only weekdays in the user's zone, Monday to Thursday being three", () => {
    // Monday 30 Nov 2026, 23:30 in Zurich is still Monday there.
    expect(workingDaysSince("2026-11-30T22:30:00.000Z", new Date("2026-12-03T08:00:00.000Z"), "Europe/Zurich")).toBe(3);
    expect(workingDaysSince("2026-12-04T10:00:00.000Z", new Date("2026-12-07T10:00:00.000Z"), "Europe/Zurich")).toBe(1);
    expect(workingDaysSince("2026-12-04T10:00:00.000Z", new Date("2026-12-04T18:00:00.000Z"), "Europe/Zurich")).toBe(0);
  });

  it("knows a mail answered by the user, and a sent mail answered by one of its recipients, by references or subject", () => {
    const asked = header({ id: 1 });
    const reply = header({
      id: 2,
      folder: "Sent",
      fromAddress: "exec@sage.example",
      toAddress: "anna@acme.example",
      subject: "Re: Q3 budget",
      date: "2026-12-02T09:00:00.000Z",
    });
    expect(repliedTo(asked, [asked, reply], own)).toBe(true);
    expect(repliedTo(asked, [asked], own)).toBe(false);
    const sent = header({
      id: 3,
      folder: "Sent",
      fromAddress: "exec@sage.example",
      toAddress: "Ravi <ravi@psc.example>",
      subject: "Contract",
      date: "2026-12-01T10:00:00.000Z",
    });
    const stranger = header({ id: 4, fromAddress: "someone@else.example", subject: "Re: Contract", date: "2026-12-02T10:00:00.000Z" });
    const answer = header({ id: 5, fromAddress: "ravi@psc.example", subject: "Other words", threadReferences: "<m3@x>", date: "2026-12-03T10:00:00.000Z" });
    expect(answeredBy(sent, [sent, stranger], own)).toBe(false);
    expect(answeredBy(sent, [sent, stranger, answer], own)).toBe(true);
  });
});
