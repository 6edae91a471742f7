import { useEffect, useRef, useState } from "react";
import { toast } from "@/components/ui/use-toast";
import { useReminders } from "../api/get-reminders";
import { alertKey, msUntilNextDue, remindersFallenDue } from "../due-alerts";

const STORAGE_KEY = "sage.announcedReminders";
// setTimeout's ceiling; longer waits are re-planned, and a minute tick covers sleep and clock changes.
const MAX_WAIT_MS = 2_147_483_647;

function loadAnnounced(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((item): item is string => typeof item === "string") : []);
  } catch {
    return new Set();
  }
}

function saveAnnounced(announced: Set<string>) {
  try {
    // Keep the newest few hundred so the key never grows without bound.
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...announced].slice(-300)));
  } catch {
    // Storage full or disabled: announcing twice after a reload is the only cost.
  }
}

/**
 * When a reminder falls due while the app is open: a toast and, if the user allowed it,
 * a system notification, once per reminder (remembered across tabs and reloads).
 */
export function useDueReminderAlerts() {
  const { data: reminders } = useReminders();
  const openedAt = useRef(new Date());
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!reminders) return;
    const now = new Date();
    const announced = loadAnnounced();
    const due = remindersFallenDue(reminders, { now, openedAt: openedAt.current, announced });
    for (const reminder of due) {
      announced.add(alertKey(reminder));
      toast({ title: "Reminder due", description: reminder.title });
      if ("Notification" in window && Notification.permission === "granted") {
        try {
          new Notification("Reminder due", { body: reminder.title, tag: `sage-reminder-${alertKey(reminder)}` });
        } catch {
          // Some platforms only allow notifications from a service worker; the toast is enough.
        }
      }
    }
    if (due.length) saveAnnounced(announced);

    const wait = msUntilNextDue(reminders, now);
    const timer = setTimeout(() => setTick((value) => value + 1), Math.min(wait ?? 60_000, 60_000, MAX_WAIT_MS) + 50);
    return () => clearTimeout(timer);
  }, [reminders, tick]);
}
