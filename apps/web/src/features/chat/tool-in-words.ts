import type { ToolCallRecord } from "@sage/contracts/conversations";

/** The assistant's own tools, as a person would name what they do. */
const BUILT_IN: Record<string, string> = {
  createReminder: "Create a reminder",
  searchDocuments: "Search your documents",
  performWebSearch: "Search the web",
  research: "Research",
  saveMemory: "Remember a fact",
  draftEmail: "Save an e-mail draft",
  deleteMail: "Move an e-mail to Trash",
  archiveMail: "Archive an e-mail",
  shareFile: "Share a file by link",
  cancelEvent: "Cancel a calendar event",
  deleteFile: "Delete a knowledge base file",
  createDocument: "Create a document",
};

/** "flight_status" / "flightStatus" / "flight-status" -> "flight status". */
const words = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A tool id in words: `travel__flight_status` -> "Travel: flight status"; `createReminder` -> "Create a reminder". */
export function toolInWords(name: string): string {
  if (BUILT_IN[name]) return BUILT_IN[name];
  const split = name.indexOf("__");
  if (split > 0) return `${capitalised(words(name.slice(0, split)))}: ${words(name.slice(split + 2))}`;
  return capitalised(words(name)) || name;
}

const oneLine = (text: string, max = 80) => {
  const line =
    text
      .split("\n")
      .find((part) => part.trim() !== "")
      ?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};

/** An argument value as text: strings as they are, everything else as compact JSON. */
export const argumentText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** An argument's key in words, first letter upper-cased: `flight_number` -> "Flight number". */
export const argumentLabel = (key: string) => capitalised(words(key)) || key;

/** What came back, in a few words: "declined", "failed: ...", the first line of the answer, or "done". */
export function toolOutcome(call: Pick<ToolCallRecord, "result" | "approval">): string {
  if (call.approval?.answer === "declined") return call.approval.kind === "memory" ? "discarded" : "declined, not run";
  if (call.approval?.answer === "timed-out") return "no answer in time, not run";
  const result = call.result;
  if (typeof result === "string") return oneLine(result) || "done";
  if (result && typeof result === "object") {
    const record = result as Record<string, unknown>;
    if (record.success === false) {
      if (typeof record.error === "string" && record.error) return `failed: ${oneLine(record.error)}`;
      return typeof record.message === "string" && record.message ? oneLine(record.message) : "failed";
    }
    for (const key of ["message", "result", "text", "summary"]) {
      const value = record[key];
      if (typeof value === "string" && value.trim()) return oneLine(value);
    }
  }
  return "done";
}
