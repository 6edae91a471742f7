import { setImmediate as nextTurn } from "node:timers/promises";
import type { LexicalIndex } from "./lexical-index.ts";

/** Pages one idle merge step may write: a few milliseconds of the server's thread. */
const STEP_PAGES = 64;

export interface ItemWrite {
  /** The item has turned out large: from now on its own writes pay the merges they set off. */
  large(): void;
  end(): void;
}

/**
 * Runs the user tables' FTS5 merges when no item is being written. Writes pay none (automerge is off,
 * lexical-index.ts): each commit leaves a segment, and once every write has ended the tables that changed are
 * merged a step at a time, one event-loop turn per step, until FTS5 reports nothing left; a write that starts
 * meanwhile pauses them. A large item turns automerge on while it is written, since its segments would otherwise
 * pile up to FTS5's crisis merge, which merges a whole level in one stall.
 */
export function createLexicalMerges(lexical: Pick<LexicalIndex, "mergeStep" | "mergeWhileWriting">) {
  let writers = 0;
  const largeWriters = new Map<number, number>();
  const dirty = new Set<number>();
  let running: Promise<void> | null = null;
  let stopped = false;

  async function run() {
    while (!stopped && writers === 0 && dirty.size > 0) {
      await nextTurn();
      if (stopped || writers > 0) return;
      const userId = dirty.values().next().value!;
      let more = false;
      try {
        more = lexical.mergeStep(userId, STEP_PAGES);
      } catch {
        // A table that cannot merge now (dropped by a reset, the store closing) is tried again after its next write.
      }
      if (!more) dirty.delete(userId);
    }
  }

  function kick() {
    if (running || stopped || writers > 0 || dirty.size === 0) return;
    running = run().finally(() => {
      running = null;
      kick();
    });
  }

  return {
    /** An item's chunks are about to be written: merges wait until it (and every other write) has ended. */
    beginWrite(userId: number): ItemWrite {
      writers++;
      let large = false;
      let ended = false;
      return {
        large() {
          if (large || ended) return;
          large = true;
          const count = largeWriters.get(userId) ?? 0;
          largeWriters.set(userId, count + 1);
          if (count === 0) lexical.mergeWhileWriting(userId, true);
        },
        end() {
          if (ended) return;
          ended = true;
          writers--;
          if (large) {
            const count = (largeWriters.get(userId) ?? 1) - 1;
            if (count > 0) largeWriters.set(userId, count);
            else {
              largeWriters.delete(userId);
              try {
                lexical.mergeWhileWriting(userId, false);
              } catch {
                // The table went away with a reset; a new one starts with automerge off.
              }
            }
          }
          dirty.add(userId);
          kick();
        },
      };
    },

    /** The user's table was written outside an item write (a restore, a delete): merge it when idle. */
    changed(userId: number): void {
      dirty.add(userId);
      kick();
    },

    /** Resolves once no merge step is running or due (tests; shutdown). */
    async idle(): Promise<void> {
      while (running) await running;
    },

    /** No further steps; resolves when the current one has finished. */
    async stop(): Promise<void> {
      stopped = true;
      while (running) await running;
    },
  };
}

export type LexicalMerges = ReturnType<typeof createLexicalMerges>;
