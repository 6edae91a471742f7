import { AlertTriangleIcon, BellIcon, CheckSquareIcon, type LucideIcon } from "lucide-react";
import type { ReminderPriority, ReminderType } from "@sage/contracts/reminders";

/** Priority colours: High red, Medium yellow, Low green. */
export const PRIORITY_TEXT_CLASS: Record<ReminderPriority, string> = {
  high: "text-red-500",
  medium: "text-yellow-500",
  low: "text-green-500",
};

export const PRIORITY_LABEL: Record<ReminderPriority, string> = { high: "High", medium: "Medium", low: "Low" };

export const TYPE_ICON: Record<ReminderType, LucideIcon> = {
  task: CheckSquareIcon,
  alert: AlertTriangleIcon,
  reminder: BellIcon,
};

export const TYPE_LABEL: Record<ReminderType, string> = { task: "Task", alert: "Alert", reminder: "Reminder" };
