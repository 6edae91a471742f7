import { format, formatDistanceToNow } from "date-fns";
import { CheckIcon, PencilIcon } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import type { Reminder } from "../api/get-reminders";
import { useUpdateReminder } from "../api/update-reminder";
import { PRIORITY_LABEL, PRIORITY_TEXT_CLASS, TYPE_ICON, TYPE_LABEL } from "../reminder-style";

interface ReminderRowProps {
  reminder: Reminder;
  /** True while the completion animation runs; a client-only flag, never sent to the server. */
  isCompleting: boolean;
  onComplete: (reminder: Reminder) => void;
  onEdit: (reminder: Reminder) => void;
  /** The conversation panel hides the link to the conversation it is already in. */
  showViewChat?: boolean;
}

/** The timestamp text: when it was set, in words. */
export function reminderTimestamp(reminder: Pick<Reminder, "createdAt">): string {
  return `Added ${formatDistanceToNow(new Date(reminder.createdAt), { addSuffix: true })}`;
}

/**
 * Issue 47: a reminder SAGE made from someone else's words (a mail, a document) says where it came from, and is not
 * the user's (the briefing leaves it out) until they keep it.
 */
export const REMINDER_FROM_CONTENT = {
  notKept: "Not yours until you keep it.",
  keep: "Keep",
};

export function ReminderRow({ reminder, isCompleting, onComplete, onEdit, showViewChat = true }: ReminderRowProps) {
  const Icon = TYPE_ICON[reminder.type];
  const update = useUpdateReminder();
  const waitsForKeep = reminder.derivedFrom !== undefined && reminder.kept === false;
  return (
    <li
      data-testid="reminder-row"
      data-completing={isCompleting || undefined}
      aria-label={reminder.title}
      className={cn(
        "group relative grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 rounded-md border p-3 transition-opacity duration-500",
        isCompleting && "reminder-completing pointer-events-none opacity-0",
      )}
    >
      <Icon
        role="img"
        aria-label={`${TYPE_LABEL[reminder.type]}, ${PRIORITY_LABEL[reminder.priority]} priority`}
        className={cn("mt-0.5 size-4 shrink-0", PRIORITY_TEXT_CLASS[reminder.priority])}
      />
      {/* The text takes the card's width; the actions wait at the end of the details line, not in a column beside it. */}
      <div className="min-w-0">
        <p className={cn("font-medium break-words", isCompleting && "line-through")}>{reminder.title}</p>
        {reminder.description && <p className={cn("text-sm break-words text-muted-foreground", isCompleting && "line-through")}>{reminder.description}</p>}
        {reminder.derivedFrom && (
          <p
            data-testid="reminder-from"
            className={cn("mt-1 text-xs break-words", waitsForKeep ? "font-medium text-red-800 dark:text-red-200" : "text-muted-foreground")}
          >
            {`From ${reminder.derivedFrom.title}.`}
            {waitsForKeep && ` ${REMINDER_FROM_CONTENT.notKept}`}
            {waitsForKeep && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="ml-2 h-6 px-2 text-xs"
                aria-label={`Keep ${reminder.title}`}
                disabled={update.isPending}
                onClick={() => update.mutate({ id: reminder.id, patch: { kept: true } })}
              >
                {REMINDER_FROM_CONTENT.keep}
              </Button>
            )}
          </p>
        )}
      </div>
      <div className="col-start-2 mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span>{reminderTimestamp(reminder)}</span>
        <span>
          {`Due ${format(reminder.due.date, "MMM d")}`}
          {!reminder.due.allDay && <span className="sr-only sm:not-sr-only">{`, ${format(reminder.due.date, "p")}`}</span>}
        </span>
        {showViewChat && reminder.conversationId !== null && (
          <Link href={`/conversations/${reminder.conversationId}`} className="text-primary underline-offset-2 hover:underline">
            View Chat
          </Link>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-1 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:opacity-100">
          <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Edit ${reminder.title}`} onClick={() => onEdit(reminder)}>
            <PencilIcon aria-hidden />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Complete ${reminder.title}`}
            onClick={() => onComplete(reminder)}
            disabled={isCompleting}
          >
            <CheckIcon aria-hidden />
          </Button>
        </span>
      </div>
    </li>
  );
}
