import { SCHEDULE_RUN_STATUS_TEXTS, type CreateScheduleRequest, type Schedule, type ScheduleTriggerKind } from "@sage/contracts/schedules";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toastError } from "@/components/ui/toast-error";
import { useScheduleActions, useScheduleRuns, useSchedules } from "../api/schedules";
import { BriefingCard } from "./briefing-card";
import { WeeklyReviewCard } from "./weekly-review-card";
import { browserTimezone, formatRunTime, knownTimezones, toRule, WEEK_DAYS, type Repeat } from "../recurrence-rule";

const failed = (error: unknown) => toastError({ error, fallback: "Something went wrong" });
const selectClass = "h-9 rounded-md border bg-transparent px-2 text-sm";

/** Settings > Schedules: prompts SAGE runs by itself, each with its next run, pause, Run now, delete and history. */
export function SchedulesSection() {
  const schedules = useSchedules();
  return (
    <section aria-labelledby="schedules-heading" className="grid gap-6">
      <div className="grid gap-1">
        <h2 id="schedules-heading" className="text-xl font-semibold">
          Schedules
        </h2>
        <p className="text-sm text-muted-foreground">
          SAGE runs these by itself at their times, or when something happens (a mail arrives, a meeting comes up, another service calls), even with no window
          open, and writes the answer in the schedule&apos;s conversation. Anything that would leave SAGE (an email, an external tool) waits for your approval.
        </p>
      </div>
      <BriefingCard />
      <WeeklyReviewCard />
      <CreateScheduleForm />
      {schedules.data && schedules.data.length === 0 && <p className="text-sm text-muted-foreground">No schedules yet.</p>}
      <ul aria-label="Schedules" className="grid gap-2">
        {schedules.data?.map((schedule) => (
          <ScheduleRow key={schedule.id} schedule={schedule} />
        ))}
      </ul>
    </section>
  );
}

/** What sets a schedule off, in plain words. */
const TRIGGER_CHOICES: { kind: ScheduleTriggerKind; label: string }[] = [
  { kind: "time", label: "At set times" },
  { kind: "mail", label: "When a mail arrives" },
  { kind: "before-event", label: "Before a meeting or event" },
  { kind: "webhook", label: "When another service calls its web address" },
];

function CreateScheduleForm() {
  const actions = useScheduleActions();
  const [title, setTitle] = useState("");
  const [prompt, setPrompt] = useState("");
  const [kind, setKind] = useState<ScheduleTriggerKind>("time");
  const [match, setMatch] = useState("");
  const [minutes, setMinutes] = useState("30");
  const [repeat, setRepeat] = useState<Repeat>("weekdays");
  const [days, setDays] = useState<string[]>(["MO"]);
  const [time, setTime] = useState("07:00");
  const [timezone, setTimezone] = useState(browserTimezone);
  const [webhookUrl, setWebhookUrl] = useState<string | null>(null);
  const timed = kind === "time";
  const matched = kind === "mail" || kind === "before-event";
  const ready =
    title.trim() &&
    prompt.trim() &&
    (!timed || (time && (repeat !== "weekly" || days.length > 0))) &&
    (!matched || match.trim()) &&
    (kind !== "before-event" || Number(minutes) >= 1);

  const request = (): CreateScheduleRequest => {
    if (timed) return { title, prompt, rrule: toRule({ repeat, days, time, timezone }), timezone };
    if (kind === "mail") return { title, prompt, trigger: { kind, match } };
    if (kind === "before-event") return { title, prompt, trigger: { kind, match, minutes: Number(minutes) } };
    return { title, prompt, trigger: { kind: "webhook" } };
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    actions.create.mutate(request(), {
      onSuccess: (created) => {
        setTitle("");
        setPrompt("");
        setMatch("");
        setWebhookUrl(created.webhookUrl ? new URL(created.webhookUrl, window.location.origin).href : null);
      },
      onError: failed,
    });
  };
  const toggleDay = (code: string) => setDays((current) => (current.includes(code) ? current.filter((day) => day !== code) : [...current, code]));

  return (
    <form onSubmit={onSubmit} aria-label="New schedule" className="grid gap-3 rounded-md border p-3">
      <label className="grid gap-1 text-sm font-medium">
        Title
        <Input value={title} maxLength={200} placeholder="e.g. Morning market brief" onChange={(event) => setTitle(event.target.value)} />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        What SAGE should do
        <Textarea value={prompt} rows={3} placeholder="e.g. Brief me on the markets and my first meeting" onChange={(event) => setPrompt(event.target.value)} />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Runs
        <select className={selectClass} value={kind} onChange={(event) => setKind(event.target.value as ScheduleTriggerKind)}>
          {TRIGGER_CHOICES.map((choice) => (
            <option key={choice.kind} value={choice.kind}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {matched && (
        <div className="flex flex-wrap items-end gap-3">
          {kind === "before-event" && (
            <label className="grid gap-1 text-sm font-medium">
              Minutes before
              <Input type="number" min={1} max={10080} className="w-28" value={minutes} onChange={(event) => setMinutes(event.target.value)} />
            </label>
          )}
          <label className="grid flex-1 gap-1 text-sm font-medium">
            {kind === "mail" ? "Mails that mention" : "Events whose title mentions"}
            <Input
              value={match}
              maxLength={200}
              placeholder={kind === "mail" ? "e.g. invoice, or board@company.example" : "e.g. Board"}
              onChange={(event) => setMatch(event.target.value)}
            />
          </label>
        </div>
      )}
      {matched && (
        <p className="text-xs text-muted-foreground">
          {kind === "mail"
            ? "It runs once for each new mail whose sender, subject or text mentions these words. What the mail says is read as the sender's words, never as your instructions."
            : "It runs once for each matching event, this many minutes before it starts."}
        </p>
      )}
      {kind === "webhook" && (
        <p className="text-xs text-muted-foreground">
          SAGE gives it a secret web address when you add it. Each call to that address runs it once; what the call sends is read as the caller&apos;s words,
          never as your instructions.
        </p>
      )}
      {timed && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-medium">
            Repeat
            <select className={selectClass} value={repeat} onChange={(event) => setRepeat(event.target.value as Repeat)}>
              <option value="daily">Every day</option>
              <option value="weekdays">Every weekday (Monday to Friday)</option>
              <option value="weekly">Weekly, on chosen days</option>
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
      )}
      {timed && repeat === "weekly" && (
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className="mb-1 font-medium">On</legend>
          {WEEK_DAYS.map((day) => (
            <label key={day.code} className="flex items-center gap-1">
              <input type="checkbox" checked={days.includes(day.code)} onChange={() => toggleDay(day.code)} />
              {day.label}
            </label>
          ))}
        </fieldset>
      )}
      <div>
        <Button type="submit" disabled={!ready || actions.create.isPending}>
          Add schedule
        </Button>
      </div>
      {webhookUrl && (
        <div role="status" className="grid gap-1 rounded-md border p-2 text-sm">
          <p className="font-medium">Its secret web address (shown only now: copy it)</p>
          <label className="grid gap-1">
            <span className="sr-only">Secret web address</span>
            <Input readOnly value={webhookUrl} onFocus={(event) => event.target.select()} />
          </label>
        </div>
      )}
    </form>
  );
}

function ScheduleRow({ schedule }: { schedule: Schedule }) {
  const actions = useScheduleActions();
  const [showHistory, setShowHistory] = useState(false);
  const next = schedule.nextRunAt ? formatRunTime(schedule.nextRunAt, schedule.timezone) : null;
  return (
    <li className="grid gap-2 rounded-md border p-3" aria-label={schedule.title}>
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words">{schedule.title}</p>
          <p className="text-sm text-muted-foreground">{schedule.summary}</p>
          {/* Issue 47: its task came from someone else's words; every run reads it as theirs. */}
          {schedule.derivedFrom && (
            <p
              className="text-xs font-medium text-red-800 dark:text-red-200"
              data-testid="schedule-from"
            >{`Its task comes from ${schedule.derivedFrom.title}.`}</p>
          )}
          <p className="text-sm">
            {schedule.paused ? "Paused" : schedule.trigger.kind !== "time" ? "Waiting for it to happen" : next ? `Next run: ${next}` : "No more runs"}
          </p>
          {schedule.lastStatus && schedule.lastRunAt && (
            <p className="text-xs text-muted-foreground">
              Last run: {formatRunTime(schedule.lastRunAt, schedule.timezone)}, {SCHEDULE_RUN_STATUS_TEXTS[schedule.lastStatus]}
            </p>
          )}
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={`${schedule.paused ? "Resume" : "Pause"} ${schedule.title}`}
          disabled={actions.setPaused.isPending}
          onClick={() => actions.setPaused.mutate({ id: schedule.id, paused: !schedule.paused }, { onError: failed })}
        >
          {schedule.paused ? "Resume" : "Pause"}
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={`Run now: ${schedule.title}`}
          disabled={actions.runNow.isPending}
          onClick={() => actions.runNow.mutate(schedule.id, { onSuccess: () => setShowHistory(true), onError: failed })}
        >
          Run now
        </Button>
        <Button type="button" variant="outline" size="sm" aria-expanded={showHistory} onClick={() => setShowHistory((shown) => !shown)}>
          History
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={`Delete schedule: ${schedule.title}`}
          disabled={actions.remove.isPending}
          onClick={() => actions.remove.mutate(schedule.id, { onError: failed })}
        >
          Delete
        </Button>
      </div>
      {showHistory && <RunHistory schedule={schedule} />}
    </li>
  );
}

function RunHistory({ schedule }: { schedule: Schedule }) {
  const runs = useScheduleRuns(schedule.id, true);
  if (runs.data?.length === 0) return <p className="text-sm text-muted-foreground">It has not run yet.</p>;
  return (
    <ul aria-label={`Runs of ${schedule.title}`} className="grid gap-1 text-sm">
      {runs.data?.map((run) => (
        <li key={run.id} className="flex flex-wrap gap-x-2">
          <span>{formatRunTime(run.startedAt, schedule.timezone)}</span>
          <span>{SCHEDULE_RUN_STATUS_TEXTS[run.status]}</span>
          {run.late && <span className="text-muted-foreground">(late: SAGE was off at its time)</span>}
          {run.manual && <span className="text-muted-foreground">(run now)</span>}
          {run.error && <span className="text-destructive">{run.error}</span>}
          {run.conversationId && (
            <Link href={`/conversations/${run.conversationId}`} className="text-primary underline-offset-2 hover:underline">
              Open conversation
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
