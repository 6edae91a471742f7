import { describe, expect, it } from "vitest";
import { createCallers } from "./mcp-callers.ts";

describe("whom a server's question goes to", () => {
  it("to the latest call in flight when every call is one user's; to nobody when two users' calls are in flight", () => {
    const callers = createCallers();
    expect(callers.askFor()).toBeUndefined();
    const first = { owner: "user:1" };
    const second = { owner: "user:1" };
    const endFirst = callers.add(first);
    const endSecond = callers.add(second);
    expect(callers.askFor()).toBe(second);
    const endOther = callers.add({ owner: "user:2" });
    expect(callers.askFor()).toBeUndefined();
    endOther();
    endSecond();
    expect(callers.askFor()).toBe(first);
    endFirst();
    expect(callers.size).toBe(0);
  });
});
