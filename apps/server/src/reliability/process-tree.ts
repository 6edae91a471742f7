import { readdirSync, readFileSync } from "node:fs";

/** A process's parent pid and state from /proc (Linux), or undefined once it is gone. */
function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    // "pid (command) state ppid ...": the command may hold spaces and parentheses, so read after the last ")".
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), state: state! };
  } catch {
    return undefined;
  }
}

/** A process that still runs: a zombie (dead, waiting to be reaped by an init that may never reap it) does not. */
export const isRunning = (pid: number) => {
  const found = stat(pid);
  return found !== undefined && found.state !== "Z" && found.state !== "X";
};

/** Every running process started, directly or not, by `root`, with its command line. */
export function descendants(root: number): Array<{ pid: number; command: string }> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || !isRunning(pid)) continue;
    const ppid = stat(pid)?.ppid;
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: Array<{ pid: number; command: string }> = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      let command = "";
      try {
        command = readFileSync(`/proc/${child}/cmdline`, "utf8").replace(/\0/g, " ");
      } catch {
        // gone meanwhile
      }
      found.push({ pid: child, command });
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** Milliseconds until none of `pids` runs, or undefined after `withinMs`. */
export async function timeUntilGone(pids: number[], withinMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (!pids.some(isRunning)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return undefined;
}

/** CPU time a process has used, user and system, in seconds (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command's ")": state is field 3, so utime (14) and stime (15) are at 11 and 12. Ticks are 1/100 s on Linux.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Resident memory of a process in MB (0 once it is gone). */
export function residentMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}
