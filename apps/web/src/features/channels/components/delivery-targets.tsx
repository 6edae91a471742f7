import { NOTIFICATION_KINDS, type Channel, type NotificationKind, type NotificationTargets } from "@sage/contracts/channels";
import { toastError } from "@/components/ui/toast-error";
import { useNotificationTargets, useSaveNotificationTargets } from "../api/channels";
import { channelLabel } from "./channel-label";

const KIND_LABELS: Record<NotificationKind, string> = {
  briefing: "Morning briefing",
  reminders: "Reminders when they are due",
  runs: "A scheduled task finished",
  approvals: "A scheduled task waits for my approval",
};

/** Where SAGE reaches the user outside the app: web push and each connected chat, per kind of news. */
export function DeliveryTargets({ channels }: { channels: Channel[] }) {
  const targets = useNotificationTargets();
  const current = targets.data;
  const save = useSaveNotificationTargets();
  const paired = channels.filter((channel) => channel.chat !== undefined);
  const places = [
    { target: "push", label: "Notifications on this browser" },
    ...paired.map((channel) => ({ target: `channel:${channel.id}`, label: channelLabel(channel) })),
  ];
  const toggle = (current: NotificationTargets, kind: NotificationKind, target: string, on: boolean) => {
    const list = current[kind].filter((item) => item !== target);
    save.mutate(
      { ...current, [kind]: on ? [...list, target] : list },
      { onError: (error) => toastError({ error, fallback: "Failed to save where SAGE reaches you" }) },
    );
  };

  return (
    <section aria-labelledby="delivery-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="delivery-heading" className="text-lg font-semibold">
        Where SAGE reaches you
      </h2>
      <p className="text-sm text-muted-foreground">
        Choose where the morning briefing, reminders and scheduled tasks reach you: this browser's notifications (turn them on in User Preferences), a connected
        chat, or both. In Telegram and Slack you can approve or decline right in the chat; by e-mail, SAGE sends a link.
      </p>
      {targets.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
      {targets.isError && <p className="text-sm text-destructive">Failed to load where SAGE reaches you</p>}
      {current && (
        <div className="flex flex-col divide-y">
          {NOTIFICATION_KINDS.map((kind) => (
            <fieldset key={kind} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between" data-testid={`targets-${kind}`}>
              <legend className="float-left text-sm font-medium sm:w-72">{KIND_LABELS[kind]}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {places.map((place) => (
                  <label key={place.target} className="flex items-center gap-1.5">
                    <input
                      type="checkbox"
                      checked={current[kind].includes(place.target)}
                      disabled={save.isPending}
                      onChange={(event) => toggle(current, kind, place.target, event.target.checked)}
                    />
                    {place.label}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
      )}
    </section>
  );
}
