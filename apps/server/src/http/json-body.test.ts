import { describe, expect, it } from "vitest";
import { jsonDepthExceeds } from "./json-body.ts";

describe("jsonDepthExceeds", () => {
  it("counts nested arrays and objects", () => {
    expect(jsonDepthExceeds('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(jsonDepthExceeds("[".repeat(65) + "]".repeat(65), 64)).toBe(true);
    expect(jsonDepthExceeds(`[${"[],".repeat(1000)}[]]`, 2)).toBe(false);
  });

  it("skips brackets inside strings, escaped quotes included", () => {
    expect(jsonDepthExceeds(JSON.stringify({ text: "[[[[[[{{{{{{" }), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: 'say \\"[[[[ and "[[[[' }), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: "ends with a backslash \\", deeper: [[[1]]] }), 3)).toBe(true);
  });
});
