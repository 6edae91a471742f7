import { EXTERNAL_TOOL_TEXTS } from "@sage/contracts/external-tools";
import { describe, expect, it } from "vitest";
import { createApprovals } from "./approvals.ts";

const ask = (approvals: ReturnType<typeof createApprovals>, signal = new AbortController().signal, userId = 1) => {
  let announced: { approvalId: string } | undefined;
  const answer = approvals.request(userId, "notes__write_note", { name: "a" }, signal, (request) => (announced = request));
  return { answer, id: announced!.approvalId };
};

describe("approvals", () => {
  it("resolves with the owner's answer, once; another user cannot answer", async () => {
    const approvals = createApprovals({ timeoutMs: 60_000 });
    const { answer, id } = ask(approvals);
    expect(approvals.pending(1)).toEqual([{ approvalId: id, name: "notes__write_note", args: { name: "a" }, risk: "asked", provenance: {} }]);
    expect(approvals.pending(2)).toEqual([]);
    expect(approvals.answer(2, id, true)).toBe(false);
    expect(approvals.answer(1, id, false)).toBe(true);
    expect(await answer).toBe("declined");
    expect(approvals.answer(1, id, true)).toBe(false);
    expect(approvals.pending(1)).toEqual([]);
  });

  it("approves a content-derived card only with its second confirmation; a decline needs none (issue 47)", async () => {
    const approvals = createApprovals({ timeoutMs: 60_000 });
    const card = { risk: "content-derived" as const, provenance: { to: { from: "content" as const, source: { title: "the mail from bob@partner.example" } } } };
    let id = "";
    const answer = approvals.request(
      1,
      "sendEmail",
      { to: ["attacker@evil.example"] },
      new AbortController().signal,
      (request) => (id = request.approvalId),
      card,
    );
    expect(approvals.pending(1)[0]).toMatchObject(card);
    expect(() => approvals.answer(1, id, true)).toThrow(expect.objectContaining({ status: 409, code: EXTERNAL_TOOL_TEXTS.confirmationRequiredCode }));
    expect(approvals.pending(1)).toHaveLength(1); // still waiting
    expect(approvals.answer(1, id, true, "content-derived")).toBe(true);
    expect(await answer).toBe("approved");

    const declined = approvals.request(1, "sendEmail", {}, new AbortController().signal, (request) => (id = request.approvalId), card);
    expect(approvals.answer(1, id, false)).toBe(true);
    expect(await declined).toBe("declined");
  });

  it("times out when nobody answers, and a stopped turn counts as declined", async () => {
    const approvals = createApprovals({ timeoutMs: 20 });
    expect(await ask(approvals).answer).toBe("timed-out");
    const stop = new AbortController();
    const stopped = ask(createApprovals({ timeoutMs: 60_000 }), stop.signal);
    stop.abort();
    expect(await stopped.answer).toBe("declined");
  });
});
