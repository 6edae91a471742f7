import { AlertTriangleIcon, BellIcon, CheckSquareIcon, type LucideIcon } from "lucide-react";
import type { ReminderPriority, ReminderType } from "@sage/contracts/reminders";

/** Priority colours: High red, Medium yellow, Low green; dark enough on a light page to read (4.5:1), light on a dark one. */
export const PRIORITY_TEXT_CLASS: Record<ReminderPriority, string> = {
  high: "text-red-700 dark:text-red-400",
  medium: "text-yellow-700 dark:text-yellow-400",
  low: "text-green-700 dark:text-green-400",
};

/** Red text for what is overdue, readable on the page and on a muted tab in both themes. */
export const OVERDUE_TEXT_CLASS = "text-red-700 dark:text-red-400";

export const PRIORITY_LABEL: Record<ReminderPriority, string> = { high: "High", medium: "Medium", low: "Low" };

export const TYPE_ICON: Record<ReminderType, LucideIcon> = {
  task: CheckSquareIcon,
  alert: AlertTriangleIcon,
  reminder: BellIcon,
};

export const TYPE_LABEL: Record<ReminderType, string> = { task: "Task", alert: "Alert", reminder: "Reminder" };
