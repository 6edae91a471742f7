import { WEEKDAYS, WEEKLY_REVIEW_TEXTS, type WeeklyReview } from "@sage/contracts/schedules";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useSaveWeeklyReview, useWeeklyReview } from "../api/schedules";
import { browserTimezone, formatRunTime, knownTimezones } from "../recurrence-rule";

const selectClass = "h-9 rounded-md border bg-transparent px-2 text-sm";
const dayName = (day: string) => day[0]!.toUpperCase() + day.slice(1);

/** Settings > Schedules: the built-in weekly review, beside the morning briefing and set the same way. */
export function WeeklyReviewCard() {
  const review = useWeeklyReview();
  if (!review.data) return null;
  // Keyed by what the server holds, so a save (or another tab's) resets the form to it.
  return <WeeklyReviewForm key={JSON.stringify(review.data)} review={review.data} />;
}

function WeeklyReviewForm({ review }: { review: WeeklyReview }) {
  const save = useSaveWeeklyReview();
  const [enabled, setEnabled] = useState(review.enabled);
  const [day, setDay] = useState(review.day);
  const [time, setTime] = useState(review.time);
  const [timezone, setTimezone] = useState(review.scheduleId ? review.timezone : browserTimezone());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled, day, time, timezone }, { onError: (error) => toastError({ error, fallback: "Something went wrong" }) });
  };

  return (
    <form onSubmit={onSubmit} aria-label={WEEKLY_REVIEW_TEXTS.title} className="grid gap-3 rounded-md border p-3">
      <div className="grid gap-1">
        <h3 className="font-medium">{WEEKLY_REVIEW_TEXTS.title}</h3>
        <p className="text-sm text-muted-foreground">
          Once a week: the meetings you held, the decisions and commitments made, what is still open, and next week&apos;s meetings that need preparing. Every
          line shows where it comes from.
        </p>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Send me the weekly review
      </label>
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm font-medium">
          On
          <select className={selectClass} value={day} onChange={(event) => setDay(event.target.value as WeeklyReview["day"])}>
            {WEEKDAYS.map((weekday) => (
              <option key={weekday} value={weekday}>
                {dayName(weekday)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm font-medium">
          At
          <Input type="time" className="w-32" value={time} required onChange={(event) => setTime(event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Time zone
          <select className={selectClass} value={timezone} onChange={(event) => setTimezone(event.target.value)}>
            {knownTimezones().map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending || !time}>
          Save weekly review
        </Button>
        {review.enabled && review.nextRunAt && (
          <span className="text-sm text-muted-foreground">Next review: {formatRunTime(review.nextRunAt, review.timezone)}</span>
        )}
      </div>
    </form>
  );
}
