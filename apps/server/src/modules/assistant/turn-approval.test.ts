import { describe, expect, it } from "vitest";
import type { AssistantTool } from "./tools/assistant-tool.ts";
import { UNATTENDED_REASON, approvalFor } from "./turn-approval.ts";
import { createUntrustedContent } from "./untrusted-content.ts";

const tool = (extra: Partial<AssistantTool>): AssistantTool => ({
  name: "t",
  description: "",
  parameters: { type: "object", properties: {} },
  readOnly: true,
  run: async () => ({ result: null }),
  ...extra,
});
const REASON = "This request follows text from memo.txt";

describe("which calls wait for the user (decision 031)", () => {
  it("in a clean turn only a tool the user asks to approve waits, with no reason", () => {
    const clean = createUntrustedContent(["Look up flight LX 123"]);
    expect(approvalFor(tool({ reach: "outside" }), { flight: "anything" }, clean)).toBeNull();
    expect(approvalFor(tool({ reach: "query" }), { query: "hunter2" }, clean)).toBeNull();
    expect(approvalFor(tool({ proposesMemory: { refusal: () => null } }), { content: "x" }, clean)).toBeNull();
    expect(approvalFor(tool({ reach: "outside", askFirst: true }), {}, clean)).toEqual({});
  });

  it("after untrusted text: any external call, a query with words the user never typed, and a memory wait; SAGE's own tools do not", () => {
    const tainted = createUntrustedContent(["Look up flight LX 123"]);
    tainted.read("memo.txt");
    expect(approvalFor(tool({ reach: "outside" }), {}, tainted)).toEqual({ reason: REASON });
    expect(approvalFor(tool({ reach: "outside", askFirst: true }), { flight: "LX 123" }, tainted)).toEqual({ reason: REASON });
    expect(approvalFor(tool({ reach: "query" }), { query: "flight LX 123" }, tainted)).toBeNull();
    expect(approvalFor(tool({ reach: "query" }), { query: "LX 123 hunter2" }, tainted)).toEqual({ reason: REASON });
    expect(approvalFor(tool({ proposesMemory: { refusal: () => null } }), { content: "x" }, tainted)).toEqual({ kind: "memory", reason: REASON });
    expect(approvalFor(tool({ readOnly: false }), { title: "hunter2" }, tainted)).toBeNull();
  });

  it("in a scheduled run nobody watches: every tool that reaches outside SAGE waits; SAGE's own tools and web search run", () => {
    const clean = createUntrustedContent(["Brief me on the markets"]);
    const unattended = { unattended: true };
    expect(approvalFor(tool({ reach: "outside" }), { flight: "LX 123" }, clean, unattended)).toEqual({ reason: UNATTENDED_REASON });
    expect(approvalFor(tool({ reach: "outside", readOnly: false, askFirst: true }), {}, clean, unattended)).toEqual({ reason: UNATTENDED_REASON });
    expect(approvalFor(tool({ askFirst: true }), {}, clean, unattended)).toEqual({});
    expect(approvalFor(tool({ readOnly: false }), { title: "Call Anna" }, clean, unattended)).toBeNull();
    expect(approvalFor(tool({ reach: "query" }), { query: "markets" }, clean, unattended)).toBeNull();
  });
});
