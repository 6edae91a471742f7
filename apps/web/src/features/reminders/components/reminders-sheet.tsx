import { PlusIcon } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/cn";
import { useReminders, type Reminder } from "../api/get-reminders";
import { useMarkRemindersRead } from "../api/update-reminder";
import { useCompleteReminderWithAnimation } from "../hooks/use-complete-reminder-with-animation";
import { useDueReminderAlerts } from "../hooks/use-due-reminder-alerts";
import { useNow } from "../hooks/use-now";
import { bucketReminders, type ReminderBucket } from "../reminder-buckets";
import { OVERDUE_TEXT_CLASS } from "../reminder-style";
import { CreateReminderFromSheetDialog } from "./create-reminder-from-sheet-dialog";
import { EditReminderDialog } from "./edit-reminder-dialog";
import { NotificationPermissionButton } from "./notification-permission-button";
import { ReminderList } from "./reminder-list";

const TABS: Array<{ bucket: ReminderBucket; label: string; empty: string }> = [
  { bucket: "today", label: "Today", empty: "No reminders for today" },
  { bucket: "week", label: "This Week", empty: "No reminders for this week" },
  { bucket: "month", label: "This Month", empty: "No reminders for this month" },
  { bucket: "overdue", label: "Overdue", empty: "No overdue reminders" },
];

/**
 * The utility bar's reminders side sheet; `children` is the trigger button. It stays mounted while
 * logged in, so it also hosts the due-time alerts.
 */
export function RemindersSheet({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Reminder>();
  const reminders = useReminders();
  const now = useNow();
  const buckets = useMemo(() => bucketReminders(reminders.data ?? [], now), [reminders.data, now]);
  const { completingIds, complete } = useCompleteReminderWithAnimation();
  useDueReminderAlerts();
  useMarkShownAsRead(open, buckets);
  // 'View Chat' navigates under the sheet; the sheet gets out of the way.
  const [location] = useLocation();
  useEffect(() => setOpen(false), [location]);

  return (
    <>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetTrigger asChild>{children}</SheetTrigger>
        <SheetContent side="right" className="w-[400px] max-w-full gap-2 sm:w-[540px] sm:max-w-[540px]">
          <SheetHeader className="pb-0">
            <SheetTitle>Reminders</SheetTitle>
            <SheetDescription className="sr-only">Your reminders by due date</SheetDescription>
            <div className="flex flex-wrap items-center gap-2 pt-1">
              <Button type="button" size="sm" onClick={() => setCreating(true)}>
                <PlusIcon aria-hidden />
                New Reminder
              </Button>
              <NotificationPermissionButton />
            </div>
          </SheetHeader>
          {reminders.isError && (
            <p role="alert" className="px-4 text-sm text-destructive">
              Failed to fetch reminders
            </p>
          )}
          <Tabs defaultValue="today" className="min-h-0 flex-1 px-4">
            <TabsList className="h-auto w-full flex-wrap">
              {TABS.map(({ bucket, label }) => (
                <TabsTrigger key={bucket} value={bucket} className={cn("px-1.5 text-xs sm:text-sm", bucket === "overdue" && OVERDUE_TEXT_CLASS)}>
                  {`${label} (${buckets[bucket].length})`}
                </TabsTrigger>
              ))}
            </TabsList>
            {TABS.map(({ bucket, empty }) => (
              <TabsContent key={bucket} value={bucket} className="h-[calc(100vh-140px)] overflow-y-auto pb-4">
                <ReminderList reminders={buckets[bucket]} empty={empty} completingIds={completingIds} onComplete={complete} onEdit={setEditing} />
              </TabsContent>
            ))}
          </Tabs>
        </SheetContent>
      </Sheet>
      <CreateReminderFromSheetDialog open={creating} onOpenChange={setCreating} />
      <EditReminderDialog reminder={editing} onClose={() => setEditing(undefined)} />
    </>
  );
}

/** While the sheet is open, what it shows (the four tabs) is marked read, each reminder once. */
function useMarkShownAsRead(open: boolean, buckets: Record<ReminderBucket, Reminder[]>) {
  const markRead = useMarkRemindersRead();
  const requested = useRef(new Set<string>());
  useEffect(() => {
    if (!open) return;
    const shown = Object.values(buckets).flat();
    const unread = shown.filter((reminder) => reminder.status === "unread" && !requested.current.has(readKey(reminder)));
    if (unread.length === 0) return;
    for (const reminder of unread) requested.current.add(readKey(reminder));
    markRead.mutate([...new Set(unread.map((reminder) => reminder.id))]);
  }, [open, buckets, markRead]);
}

// A rescheduled reminder is unread again under the same id, so the key includes its updatedAt.
const readKey = (reminder: Reminder) => `${reminder.id}@${reminder.updatedAt}`;
