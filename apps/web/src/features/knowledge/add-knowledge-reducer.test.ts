import { describe, expect, it } from "vitest";
import { addKnowledgeReducer, hasUnsavedInput, initialAddKnowledgeState, type AddKnowledgeAction, type AddKnowledgeState } from "./add-knowledge-reducer";
import type { PendingEntry } from "./pending-entry";

const file = (name: string): PendingEntry => ({ kind: "file", file: new File(["x"], name) });
const apply = (state: AddKnowledgeState, ...actions: AddKnowledgeAction[]) => actions.reduce(addKnowledgeReducer, state);
const run = (...actions: AddKnowledgeAction[]) => apply(initialAddKnowledgeState({ id: 0, trail: [] }), ...actions);
const labels = (state: AddKnowledgeState) =>
  state.items.map(({ entry }) =>
    entry.kind === "file" ? entry.file.name : entry.kind === "url" ? entry.url : entry.kind === "note" ? entry.text : entry.name,
  );

describe("addKnowledgeReducer", () => {
  it("adds files to files, but a link or a note replaces everything chosen before", () => {
    const files = run({ type: "uploads-added", entries: [file("a.pdf")] }, { type: "uploads-added", entries: [file("b.pdf")] });
    expect(labels(files)).toEqual(["a.pdf", "b.pdf"]);
    const withLink = apply(
      files,
      { type: "url-typed", text: "  https://example.com/q3  " },
      { type: "note-typed", text: "half a note" },
      { type: "url-added" },
    );
    expect(labels(withLink)).toEqual(["https://example.com/q3"]);
    expect([withLink.urlDraft, withLink.noteDraft]).toEqual(["", ""]);
    expect(labels(addKnowledgeReducer(withLink, { type: "uploads-added", entries: [file("c.pdf")] }))).toEqual(["c.pdf"]);
    expect(labels(apply(withLink, { type: "note-typed", text: "Anna prefers mornings" }, { type: "note-added" }))).toEqual(["Anna prefers mornings"]);
  });

  it("ignores a blank link or note, and an empty choice of files", () => {
    const start = run({ type: "uploads-added", entries: [file("a.pdf")] });
    expect(run({ type: "uploads-added", entries: [file("a.pdf")] }, { type: "url-typed", text: "   " }, { type: "url-added" }).items).toEqual(start.items);
    expect(addKnowledgeReducer(start, { type: "uploads-added", entries: [] })).toBe(start);
    expect(addKnowledgeReducer(start, { type: "note-added" })).toBe(start);
  });

  it("starts describing only when something was chosen", () => {
    expect(run({ type: "describe-started" }).step).toBe("pick");
    expect(run({ type: "uploads-added", entries: [file("a.pdf")] }, { type: "describe-started" }).step).toBe("describe");
  });

  it("needs a description before moving on, one item after the other, then the destination", () => {
    const describing = run({ type: "uploads-added", entries: [file("a.pdf"), file("b.pdf")] }, { type: "describe-started" });
    expect(addKnowledgeReducer(describing, { type: "description-confirmed" })).toBe(describing);
    const blank = addKnowledgeReducer(describing, { type: "description-typed", text: "   " });
    expect(addKnowledgeReducer(blank, { type: "description-confirmed" }).describeIndex).toBe(0);

    const done = apply(
      describing,
      { type: "description-typed", text: "Board pack" },
      { type: "description-confirmed" },
      { type: "description-typed", text: "Minutes" },
      { type: "description-confirmed" },
    );
    expect(done.step).toBe("destination");
    expect(done.items.map((item) => item.description)).toEqual(["Board pack", "Minutes"]);
  });

  it("goes back a step at a time and keeps each description with its item", () => {
    const done = run(
      { type: "uploads-added", entries: [file("a.pdf"), file("b.pdf")] },
      { type: "describe-started" },
      { type: "description-typed", text: "Board pack" },
      { type: "description-confirmed" },
      { type: "description-typed", text: "Minutes" },
      { type: "description-confirmed" },
    );
    const back = addKnowledgeReducer(done, { type: "went-back" });
    expect([back.step, back.describeIndex]).toEqual(["describe", 1]);
    const picking = apply(back, { type: "went-back" }, { type: "went-back" });
    expect(picking.step).toBe("pick");
    // Removing the first file leaves the second with its own description.
    const removed = addKnowledgeReducer(picking, { type: "entry-removed", index: 0 });
    expect(removed.items.map(({ description }) => description)).toEqual(["Minutes"]);
  });

  it("keeps the folder opened, and starts afresh on reset", () => {
    const board = { id: 40, trail: [] };
    const state = run({ type: "uploads-added", entries: [file("a.pdf")] }, { type: "destination-opened", destination: board });
    expect(state.destination).toBe(board);
    expect(hasUnsavedInput(state)).toBe(true);
    const reset = addKnowledgeReducer(state, { type: "reset", destination: { id: 0, trail: [] } });
    expect(reset).toEqual(initialAddKnowledgeState({ id: 0, trail: [] }));
    expect(hasUnsavedInput(reset)).toBe(false);
    expect(hasUnsavedInput(addKnowledgeReducer(reset, { type: "note-typed", text: "a thought" }))).toBe(true);
    expect(hasUnsavedInput(addKnowledgeReducer(reset, { type: "url-typed", text: "  " }))).toBe(false);
  });
});
