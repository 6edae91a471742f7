import { format } from "date-fns";
import { useEffect, useId, useState, type FormEvent } from "react";
import { REMINDER_PRIORITIES, REMINDER_TYPES, type ReminderPriority, type ReminderType } from "@sage/contracts/reminders";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/cn";
import type { Reminder } from "../api/get-reminders";
import { combineDayAndTime, toOffsetIso } from "../due-date";
import { PRIORITY_LABEL, PRIORITY_TEXT_CLASS, TYPE_LABEL } from "../reminder-style";
import { DueDateCalendar } from "./due-date-calendar";

export interface ReminderFormValues {
  title: string;
  description: string;
  /** An ISO date-time with offset, YYYY-MM-DD when no time is given, undefined when no day is picked. */
  dueDate: string | undefined;
  priority: ReminderPriority;
  type: ReminderType;
}

/** No time: the whole day, as the field's hint says. A fixed hour would make a reminder for today overdue at once. */
const DEFAULT_TIME = "";

interface ReminderFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  heading: string;
  submitLabel: string;
  /** Client-side required rules (conversation panel, edit); the sheet's create form leaves them to the server. */
  validate: boolean;
  showType?: boolean;
  initial?: Reminder;
  pending: boolean;
  /** Shown under the form (the conversation panel shows the server's error there). */
  error?: string;
  onSubmit: (values: ReminderFormValues) => void;
}

export function ReminderFormDialog(props: ReminderFormDialogProps) {
  const { open, onOpenChange, heading, submitLabel, validate, showType = false, initial, pending, error, onSubmit } = props;
  const id = useId();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [day, setDay] = useState<Date | undefined>();
  const [time, setTime] = useState(DEFAULT_TIME);
  const [priority, setPriority] = useState<ReminderPriority>("medium");
  const [type, setType] = useState<ReminderType>("reminder");
  const [errors, setErrors] = useState<{ title?: string; dueDate?: string }>({});

  // Each opening starts from the reminder being edited, or from an empty form.
  useEffect(() => {
    if (!open) return;
    setTitle(initial?.title ?? "");
    setDescription(initial?.description ?? "");
    setDay(initial?.due.date);
    setTime(initial ? (initial.due.allDay ? "" : format(initial.due.date, "HH:mm")) : DEFAULT_TIME);
    setPriority(initial?.priority ?? "medium");
    setType(initial?.type ?? "reminder");
    setErrors({});
    // Keyed on the id: a refetch while the dialog is open must not wipe what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initial?.id]);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (validate) {
      const found = {
        title: title.trim() ? undefined : "Title is required",
        dueDate: day ? undefined : "Due date is required",
      };
      setErrors(found);
      if (found.title || found.dueDate) return;
    }
    const dueDate = day ? (time ? toOffsetIso(combineDayAndTime(day, time)) : format(day, "yyyy-MM-dd")) : undefined;
    onSubmit({ title, description, dueDate, priority, type });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{heading}</DialogTitle>
          <DialogDescription className="sr-only">Title, description, due date and priority of the reminder</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-title`}>Title</Label>
            <Input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} aria-invalid={errors.title ? true : undefined} />
            {errors.title && <p className="text-sm text-destructive">{errors.title}</p>}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea id={`${id}-description`} value={description} onChange={(event) => setDescription(event.target.value)} />
          </div>
          <div className="grid gap-2">
            <span className="text-sm font-medium">Due Date</span>
            <div className="flex flex-wrap items-start gap-3">
              <DueDateCalendar selected={day} onSelect={setDay} />
              <div className="grid gap-2">
                <Label htmlFor={`${id}-time`}>Time</Label>
                <Input id={`${id}-time`} type="time" value={time} onChange={(event) => setTime(event.target.value)} className="w-32" />
                <p className="max-w-32 text-xs text-muted-foreground">Leave empty for the whole day.</p>
              </div>
            </div>
            {errors.dueDate && <p className="text-sm text-destructive">{errors.dueDate}</p>}
          </div>
          <div className="grid gap-2">
            <span id={`${id}-priority`} className="text-sm font-medium">
              Priority
            </span>
            <RadioGroup
              aria-labelledby={`${id}-priority`}
              value={priority}
              onValueChange={(value) => setPriority(value as ReminderPriority)}
              className="flex gap-4"
            >
              {REMINDER_PRIORITIES.map((value) => (
                <div key={value} className="flex items-center gap-2">
                  <RadioGroupItem value={value} id={`${id}-priority-${value}`} className={PRIORITY_TEXT_CLASS[value]} />
                  <Label htmlFor={`${id}-priority-${value}`} className={cn("font-normal", PRIORITY_TEXT_CLASS[value])}>
                    {PRIORITY_LABEL[value]}
                  </Label>
                </div>
              ))}
            </RadioGroup>
          </div>
          {showType && (
            <div className="grid gap-2">
              <Label htmlFor={`${id}-type`}>Type</Label>
              <select
                id={`${id}-type`}
                value={type}
                onChange={(event) => setType(event.target.value as ReminderType)}
                className="h-9 rounded-md border border-input bg-background px-3 text-sm"
              >
                {REMINDER_TYPES.map((value) => (
                  <option key={value} value={value}>
                    {TYPE_LABEL[value]}
                  </option>
                ))}
              </select>
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
