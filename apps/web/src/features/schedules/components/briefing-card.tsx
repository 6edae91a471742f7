import { BRIEFING_TEXTS, BRIEFING_TOPICS_MAX, type Briefing } from "@sage/contracts/schedules";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useBriefing, useSaveBriefing } from "../api/schedules";
import { browserTimezone, formatRunTime, knownTimezones } from "../recurrence-rule";

const selectClass = "h-9 rounded-md border bg-transparent px-2 text-sm";

/** Settings > Schedules: the built-in morning briefing, switched on and set in one place. */
export function BriefingCard() {
  const briefing = useBriefing();
  if (!briefing.data) return null;
  // Keyed by what the server holds, so a save (or another tab's) resets the form to it.
  return <BriefingForm key={JSON.stringify(briefing.data)} briefing={briefing.data} />;
}

function BriefingForm({ briefing }: { briefing: Briefing }) {
  const save = useSaveBriefing();
  const [enabled, setEnabled] = useState(briefing.enabled);
  const [time, setTime] = useState(briefing.time);
  const [days, setDays] = useState(briefing.days);
  const [timezone, setTimezone] = useState(briefing.scheduleId ? briefing.timezone : browserTimezone());
  const [topics, setTopics] = useState(briefing.topics.join(", "));
  const topicList = topics
    .split(",")
    .map((topic) => topic.trim())
    .filter(Boolean);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled, time, days, timezone, topics: topicList }, { onError: (error) => toastError({ error, fallback: "Something went wrong" }) });
  };

  return (
    <form onSubmit={onSubmit} aria-label={BRIEFING_TEXTS.title} className="grid gap-3 rounded-md border p-3">
      <div className="grid gap-1">
        <h3 className="font-medium">{BRIEFING_TEXTS.title}</h3>
        <p className="text-sm text-muted-foreground">
          One short message at the time you choose: today&apos;s meetings, reminders due, commitments due, mail that may need a reply, and news on your topics.
          Every line shows where it comes from.
        </p>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Send me the morning briefing
      </label>
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm font-medium">
          At
          <Input type="time" className="w-32" value={time} required onChange={(event) => setTime(event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          On
          <select className={selectClass} value={days} onChange={(event) => setDays(event.target.value as Briefing["days"])}>
            <option value="weekdays">Weekdays (Monday to Friday)</option>
            <option value="daily">Every day</option>
          </select>
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
      <label className="grid gap-1 text-sm font-medium">
        News topics (comma-separated, up to {BRIEFING_TOPICS_MAX})
        <Input value={topics} placeholder="e.g. AI chips, Swiss franc" onChange={(event) => setTopics(event.target.value)} />
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending || !time}>
          Save briefing
        </Button>
        {briefing.enabled && briefing.nextRunAt && (
          <span className="text-sm text-muted-foreground">Next briefing: {formatRunTime(briefing.nextRunAt, briefing.timezone)}</span>
        )}
      </div>
    </form>
  );
}
