import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Yields to the event loop once `sliceMs` have passed since the last yield, so a long import or export lets every
 * other request in between its batches (setImmediate runs after pending I/O callbacks).
 */
export function createPacer(sliceMs = 8): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}
