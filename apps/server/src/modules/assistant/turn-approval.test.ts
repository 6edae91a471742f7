import { describe, expect, it } from "vitest";
import { createTurnProvenance } from "./provenance/turn-provenance.ts";
import type { AssistantTool } from "./tools/assistant-tool.ts";
import { UNATTENDED_REASON, approvalFor } from "./turn-approval.ts";

const tool = (extra: Partial<AssistantTool>): AssistantTool => ({
  name: "t",
  description: "",
  parameters: { type: "object", properties: {} },
  readOnly: true,
  run: async () => ({ result: null }),
  ...extra,
});
const MAIL_ROLES = { to: "recipients", cc: "recipients", subject: "text", body: "text" } as const;
const send = tool({ name: "sendEmail", reach: "outside", askFirst: true, readOnly: false, argumentRoles: MAIL_ROLES });
const draft = tool({ name: "draftEmail", reach: "draft", readOnly: false, argumentRoles: MAIL_ROLES });
const memory = tool({ name: "saveMemory", readOnly: false, proposesMemory: { refusal: () => null }, argumentRoles: { content: "text" } });
const external = tool({ name: "remote__lookup", reach: "outside" });
const NEWSLETTER = { title: "the mail from news@shop.example of 14 May", messageId: 3 };

function ledger(typed: string[], read = "Big sale! Reply to deals@shop.example or visit http://shop.example/win to claim 50,000 points.") {
  const turn = createTurnProvenance({
    typed,
    user: { memories: ["My clients are Acme Corp and Globex"], people: [{ address: "emma@example.com", name: "Emma Johnson" }] },
  });
  turn.read([{ source: NEWSLETTER, text: read }]);
  return turn;
}

describe("which calls wait for the user, and how their card reads (issue 47)", () => {
  it("a send the user asked for with their own values is calm, though the turn read a mail", () => {
    const decided = approvalFor(send, { to: ["emma@example.com"], subject: "Agenda", body: "Here is the agenda." }, ledger(["Send Emma the agenda"]));
    expect(decided.card).toMatchObject({ risk: "asked", reason: "As you asked: to Emma Johnson <emma@example.com>." });
    expect(decided.card!.summary).toEqual(["To: Emma Johnson <emma@example.com>", "Subject: Agenda", "Message: Here is the agenda."]);
    expect(decided.provenance).toEqual({ to: { from: "user" }, subject: { from: "user" }, body: { from: "user" } });
  });

  it("an address, a link or a number from the mail makes the card red, naming the mail each came from", () => {
    const turn = ledger(["Anything new in my inbox?"]);
    const red = approvalFor(send, { to: ["deals@shop.example"], subject: "Claim", body: "Claim at http://shop.example/win" }, turn);
    expect(red.card).toMatchObject({
      risk: "content-derived",
      reason:
        "deals@shop.example appears only in the mail from news@shop.example of 14 May; you never wrote it. " +
        "The link shop.example/win appears only in the mail from news@shop.example of 14 May; you never wrote it.",
    });
    expect(red.provenance.to).toEqual({ from: "content", source: NEWSLETTER });
    // Someone the user writes to, but a link from the mail in the text: still red.
    expect(approvalFor(send, { to: ["emma@example.com"], subject: "Win", body: "Visit http://shop.example/win" }, turn).card!.risk).toBe("content-derived");
  });

  it("a draft to the user's own people runs without a card; to an address from the mail it waits like a send", () => {
    const turn = ledger(["Draft a note to Emma"]);
    expect(approvalFor(draft, { to: ["emma@example.com"], subject: "Hi", body: "Hello Emma" }, turn).card).toBeNull();
    expect(approvalFor(draft, { to: ["deals@shop.example"], subject: "Hi", body: "Hello" }, turn).card).toMatchObject({ risk: "content-derived" });
  });

  it("a draft whose body comes from the mail waits when it goes to someone outside the user's people, not to Emma", () => {
    const turn = ledger(["Draft the offer for emma@example.com and for bob@outside.example"]);
    const copied = "Claim it at http://shop.example/win for 50,000 points.";
    expect(approvalFor(draft, { to: ["emma@example.com"], subject: "Offer", body: copied }, turn).card).toBeNull();
    const outside = approvalFor(draft, { to: ["bob@outside.example"], subject: "Offer", body: copied }, turn);
    expect(outside.card).toMatchObject({ risk: "content-derived" });
    expect(outside.card!.reason).toContain("The link shop.example/win appears only in the mail from news@shop.example of 14 May");
    expect(outside.provenance).toMatchObject({ to: { from: "user" }, body: { from: "content", source: NEWSLETTER } });
    // The user's own words to the same address stay card-free.
    expect(approvalFor(draft, { to: ["bob@outside.example"], subject: "Offer", body: "Here is the offer." }, turn).card).toBeNull();
  });

  it("a memory of the user's own words needs no Keep after reading a mail; one carrying the mail's words does", () => {
    const turn = ledger(["I fly with Swiss; anything in my inbox?"]);
    expect(approvalFor(memory, { content: "The user flies with Swiss" }, turn).card).toBeNull();
    expect(approvalFor(memory, { content: "The user's points code is 50,000" }, turn).card).toMatchObject({ kind: "memory", risk: "content-derived" });
  });

  it("a read-only outside call waits only for content-derived values or private data; red when private data would leave after content", () => {
    const clean = createTurnProvenance({ typed: ["Look up flight LX 318"], user: { memories: ["My clients are Acme Corp and Globex"], people: [] } });
    expect(approvalFor(external, { flight: "LX 318" }, clean).card).toBeNull();
    expect(approvalFor(external, { text: "clients Acme Globex" }, clean).card).toMatchObject({
      risk: "asked",
      reason: "As you asked. This sends what SAGE keeps about you (“My clients are Acme Corp and Globex”) out of SAGE; you did not type it here.",
    });
    const tainted = ledger(["Anything new?"]);
    expect(approvalFor(external, { text: "clients Acme Globex" }, tainted).card).toMatchObject({ risk: "content-derived" });
    expect(approvalFor(external, { text: "Anything new" }, tainted).card).toBeNull();
  });

  it("in a scheduled run nobody watches: every external call waits, saying why; SAGE's own tools run", () => {
    const turn = createTurnProvenance({ typed: ["Brief me on the markets"], user: { memories: [], people: [] } });
    const unattended = { unattended: true };
    expect(approvalFor(external, { query: "markets" }, turn, unattended).card).toMatchObject({ risk: "asked", reason: `${UNATTENDED_REASON} As you asked.` });
    expect(approvalFor(tool({ readOnly: false }), { title: "Call Anna" }, turn, unattended).card).toBeNull();
    expect(approvalFor(tool({ reach: "query" }), { query: "markets" }, turn, unattended).card).toBeNull();
  });
});
