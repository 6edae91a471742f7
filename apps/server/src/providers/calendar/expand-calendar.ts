import { runInThread } from "../../documents/converters/run-in-thread.ts";
import type { ExpandRequest, ExpandResult } from "./calendar-expand.entry.ts";

export type { ExpandResult, Occurrence } from "./calendar-expand.entry.ts";

/**
 * The occurrences of the given calendar objects within a window, recurring events expanded with their exceptions
 * (RECURRENCE-ID moves, EXDATE and cancelled ones), in UTC: parsed in a thread with a time and memory limit.
 */
export function expandCalendar(request: ExpandRequest): Promise<ExpandResult> {
  return runInThread<ExpandRequest, ExpandResult>(new URL("./calendar-expand.entry.ts", import.meta.url), {
    what: "The calendar",
    workerData: request,
    timeoutMs: 60_000,
    maxHeapMb: 256,
  });
}
