import type { Memory } from "@sage/contracts/memories";
import { describe, expect, it } from "vitest";
import { memoriesForTurn } from "./rank-memories.ts";

const memory = (id: number, content: string): Memory => ({ id, content, source: "user", createdAt: "", updatedAt: "" });

describe("memoriesForTurn", () => {
  it("gives every memory, in saved order, when they fit the budget", () => {
    const all = [memory(1, "Anna is my chief of staff"), memory(2, "I like short emails")];
    expect(memoriesForTurn(all, "anything", 2000)).toEqual(all);
  });

  it("over the budget, keeps the memories that share the message's words", () => {
    const filler = Array.from({ length: 40 }, (_, index) => memory(index + 1, `Filler fact number ${index} about nothing in particular at all`));
    const board = memory(100, "The next board meeting is in Oslo on 12 March");
    const chosen = memoriesForTurn([...filler.slice(0, 20), board, ...filler.slice(20)], "When is the board meeting?", 300);
    expect(chosen).toContainEqual(board);
    expect(chosen.reduce((sum, item) => sum + item.content.length + 3, 0)).toBeLessThanOrEqual(300);
    expect(chosen.length).toBeLessThan(41);
  });
});
