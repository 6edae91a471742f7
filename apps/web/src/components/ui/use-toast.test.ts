import { describe, expect, it } from "vitest";
import { TOAST_LIMIT, toastReducer, type ToasterToast } from "./use-toast";

const make = (id: string): ToasterToast => ({ id, title: `t${id}`, open: true });

describe("toastReducer", () => {
  it("keeps one toast at a time, newest first", () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = toastReducer({ toasts: [] }, { type: "ADD_TOAST", toast: make("1") });
    state = toastReducer(state, { type: "ADD_TOAST", toast: make("2") });
    expect(state.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("dismiss closes without removing; remove drops it", () => {
    let state = toastReducer({ toasts: [make("1")] }, { type: "DISMISS_TOAST", toastId: "1" });
    expect(state.toasts).toEqual([{ ...make("1"), open: false }]);
    state = toastReducer(state, { type: "REMOVE_TOAST", toastId: "1" });
    expect(state.toasts).toEqual([]);
  });
});
