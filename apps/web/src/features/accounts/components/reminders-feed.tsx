import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCalendarFeed, useRotateCalendarFeed } from "../api/accounts";

/** The reminders as a calendar: the secret address to paste into Outlook, Google or Apple Calendar, with Copy and Rotate. */
export function RemindersFeed() {
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    if (!feed.data) return;
    try {
      await navigator.clipboard.writeText(feed.data.url);
      setCopied(true);
    } catch (error) {
      toastError({ error, fallback: "Failed to copy the address" });
    }
  };
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2 rounded-lg border p-3">
      <h3 id={`${id}-heading`} className="font-semibold">
        Reminders in your calendar
      </h3>
      <p className="text-sm text-muted-foreground">
        Subscribe to this address in Outlook, Google Calendar or Apple Calendar to see your reminders there. Keep it private: anyone with it can read your
        reminders.
      </p>
      {feed.isError && <p className="text-sm text-destructive">Failed to load the calendar address</p>}
      <label htmlFor={`${id}-url`} className="text-sm font-medium">
        Reminders calendar address
      </label>
      <Input id={`${id}-url`} readOnly value={feed.data?.url ?? ""} onFocus={(event) => event.target.select()} />
      {copied && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          Address copied.
        </p>
      )}
      {confirming ? (
        <div role="group" aria-label="Rotate the address" className="flex flex-wrap items-center gap-2">
          <p className="text-sm">The old address will stop working; calendars subscribed to it need the new one.</p>
          <Button
            type="button"
            variant="destructive"
            size="sm"
            disabled={rotate.isPending}
            onClick={() =>
              rotate.mutate(undefined, {
                onSuccess: () => {
                  setConfirming(false);
                  setCopied(false);
                },
                onError: (error) => toastError({ error, fallback: "Failed to make a new address" }),
              })
            }
          >
            Make a new address
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex gap-2">
          <Button type="button" variant="outline" size="sm" disabled={!feed.data} onClick={copy}>
            Copy
          </Button>
          <Button type="button" variant="outline" size="sm" disabled={!feed.data} onClick={() => setConfirming(true)}>
            Rotate
          </Button>
        </div>
      )}
    </section>
  );
}
