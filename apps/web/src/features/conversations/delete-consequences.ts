import { DELETED_CONVERSATION_DAYS } from "@sage/contracts/conversations";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What goes with a deleted conversation, in words: "2 reminders and 1 file are deleted with it." (null when nothing). */
export function deletedWithIt(contents: { reminders: number; files: number }): string | null {
  const parts = [
    ...(contents.reminders > 0 ? [count(contents.reminders, "reminder", "reminders")] : []),
    ...(contents.files > 0 ? [count(contents.files, "file", "files")] : []),
  ];
  if (parts.length === 0) return null;
  const verb = parts.length === 1 && (contents.reminders === 1 || contents.files === 1) ? "is" : "are";
  return `${parts.join(" and ")} ${verb} deleted with it.`;
}

export const RESTORABLE_FOR = `You can restore it from Recently deleted for ${DELETED_CONVERSATION_DAYS} days.`;
