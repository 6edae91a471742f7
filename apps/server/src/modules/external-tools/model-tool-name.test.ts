import { describe, expect, it } from "vitest";
import { modelToolName } from "./model-tool-name.ts";

describe("modelToolName", () => {
  it("joins server and tool with a double underscore", () => {
    expect(modelToolName("notes", "read_note")).toBe("notes__read_note");
  });

  it("keeps to Gemini's function-name rules: [a-zA-Z0-9_.-], starting with a letter or underscore, at most 64", () => {
    expect(modelToolName("my server", "get/events:today")).toBe("my_server__get_events_today");
    expect(modelToolName("1password", "find")).toBe("_1password__find");
    const long = modelToolName("calendar", "x".repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/);
  });

  it("gives a name already taken a numbered suffix, still within 64", () => {
    const taken = new Set([modelToolName("calendar", "x".repeat(100))]);
    const second = modelToolName("calendar", `${"x".repeat(99)}y`, taken);
    expect(second).toHaveLength(64);
    expect(second.endsWith("_2")).toBe(true);
    expect(modelToolName("a b", "c", new Set(["a_b__c"]))).toBe("a_b__c_2");
  });
});
