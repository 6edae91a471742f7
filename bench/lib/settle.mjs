// Waiting for a server and the processes it started to go quiet before timing it.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_S = 100; // USER_HZ on Linux

/** The process and every process below it (from /proc/<pid>/task/<tid>/children). */
function family(pid) {
  const all = [pid];
  for (let index = 0; index < all.length; index++) {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${all[index]}/task`);
    } catch {
      continue; // ended meanwhile
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${all[index]}/task/${task}/children`, "utf8").split(" ").filter(Boolean)) all.push(Number(child));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return all;
}

/** CPU seconds used so far by the process and its descendants (user + system, from /proc/<pid>/stat). */
function cpuSeconds(pid) {
  let ticks = 0;
  for (const member of family(pid)) {
    try {
      const fields = readFileSync(`/proc/${member}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks / TICKS_PER_S;
}

/**
 * Resolves once the process and everything it started used under `share` of one CPU over a `windowMs` window
 * (a server just started still loads its document reader and indexes on the other core, which a timing taken
 * then would share the machine with), or after `timeoutMs` regardless. Answers how long it waited.
 */
export async function waitUntilQuiet(pid, { windowMs = 500, share = 0.05, timeoutMs = 15_000 } = {}) {
  const startedAt = performance.now();
  for (;;) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const used = cpuSeconds(pid) - before;
    if (used <= (windowMs / 1000) * share || performance.now() - startedAt > timeoutMs) return performance.now() - startedAt;
  }
}
