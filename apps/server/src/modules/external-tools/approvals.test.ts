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
    expect(approvals.pending(1)).toEqual([{ approvalId: id, name: "notes__write_note", args: { name: "a" } }]);
    expect(approvals.pending(2)).toEqual([]);
    expect(approvals.answer(2, id, true)).toBe(false);
    expect(approvals.answer(1, id, false)).toBe(true);
    expect(await answer).toBe("declined");
    expect(approvals.answer(1, id, true)).toBe(false);
    expect(approvals.pending(1)).toEqual([]);
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
