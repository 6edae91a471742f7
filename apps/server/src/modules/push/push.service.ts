import { PUSH_TEXTS, type PushKind, type PushPayload, type PushSettings, type PushStatus, type PushSubscriptionInput } from "@sage/contracts/push";
import type { Reminder } from "@sage/contracts/reminders";
import { zonedToUtc } from "../../providers/calendar/zoned-time.ts";
import { badRequest } from "../../http/app-error.ts";
import { createPushSender, generateVapidKeys, pushEndpointAllowed, type VapidKeys } from "../../providers/push/web-push.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { PushRepo } from "./push.repo.ts";

/** A reminder is pushed when due, unless it was due longer ago than this (turning push on does not replay a backlog). */
const REMINDER_WINDOW_MS = 6 * 3_600_000;
/** A whole-day reminder (YYYY-MM-DD) is pushed at this hour of its day, in the user's time zone. */
const WHOLE_DAY_HOUR = 8;
/** Apple's push service refuses a contact at localhost (403 BadJwtToken), so such a setup is named once in the log. */
const APPLE_PUSH = /(^|\.)push\.apple\.com$/i;

/** When a reminder is due: its time, or 08:00 of its day in the user's time zone for a whole-day one. */
export function reminderDueAt(reminder: Pick<Reminder, "dueDate">, timeZone: string): number {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(reminder.dueDate);
  if (!day) return Date.parse(reminder.dueDate);
  return zonedToUtc({ year: Number(day[1]), month: Number(day[2]), day: Number(day[3]), hour: WHOLE_DAY_HOUR, minute: 0, second: 0 }, timeZone);
}

/** Whether a reminder due at `due` is pushed now: it fell due, and not longer ago than the window. */
export const reminderDueNow = (due: number, now: number) => due <= now && now - due <= REMINDER_WINDOW_MS;

export function createPushService(deps: {
  repo: PushRepo;
  box: SecretBox;
  allowPrivate: boolean;
  /** Who the push services may contact about this server's messages (RFC 8292: a mailto: or https: URL). */
  contact: string;
  reminders: { list(userId: number): Promise<Reminder[]> };
  /** The user's time zone (whole-day reminders are pushed at 08:00 there). */
  timeZone(userId: number): Promise<string>;
  /** Whether the user wants this kind on web push at all (Settings > Channels' targets); every kind when absent. */
  delivers?(userId: number, kind: PushKind): Promise<boolean>;
  now: () => Date;
  warn(message: string, error?: unknown): void;
}) {
  const { repo } = deps;
  // Pushes sent without waiting (a scheduler's events), so tests and shutdown can wait for them.
  const pending = new Set<Promise<unknown>>();
  let keys: Promise<VapidKeys> | undefined;

  /** The VAPID pair, made once and kept with the private half sealed; a pair that no longer opens is replaced. */
  function vapid(): Promise<VapidKeys> {
    keys ??= (async () => {
      const at = deps.now().toISOString();
      let row = await repo.keys();
      if (!row) {
        const fresh = generateVapidKeys();
        await repo.saveKeys(fresh.publicKey, deps.box.seal(fresh.privateKey), at);
        row = (await repo.keys())!;
      }
      const privateKey = deps.box.open(row.privateKey);
      if (privateKey !== null) return { publicKey: row.publicKey, privateKey };
      deps.warn("the push key could not be opened with this secret key; a new one is made and devices must turn notifications on again");
      const fresh = generateVapidKeys();
      await repo.replaceKeys(fresh.publicKey, deps.box.seal(fresh.privateKey), at);
      return fresh;
    })();
    keys.catch(() => (keys = undefined));
    return keys;
  }

  /** Pushes to each of the user's devices when the kind is on; a device the push service forgot is dropped. */
  async function notify(userId: number, payload: PushPayload) {
    if (!(await repo.wants(userId, payload.kind))) return 0;
    const devices = await repo.subscriptions(userId);
    if (devices.length === 0) return 0;
    const sender = createPushSender({ keys: await vapid(), subject: deps.contact, allowPrivate: deps.allowPrivate });
    let sent = 0;
    for (const device of devices) {
      const result = await sender.send(device, JSON.stringify(payload));
      if (result === "gone") await repo.forget(device.id);
      else if (result === "sent") sent++;
    }
    return sent;
  }

  let warnedContact = false;

  return {
    notify,
    async status(userId: number): Promise<PushStatus> {
      return { publicKey: (await vapid()).publicKey, settings: await repo.settings(userId), devices: (await repo.subscriptions(userId)).length };
    },
    async subscribe(userId: number, input: PushSubscriptionInput) {
      if (!pushEndpointAllowed(input.endpoint, deps.allowPrivate)) throw badRequest(PUSH_TEXTS.endpointRefused, "push_endpoint_refused");
      if (!warnedContact && /@localhost$/i.test(deps.contact) && APPLE_PUSH.test(new URL(input.endpoint).hostname)) {
        warnedContact = true;
        deps.warn("Apple devices get no notifications until SAGE_PUSH_CONTACT names a real mailto: address or https: page");
      }
      await repo.subscribe(userId, input.endpoint, input.keys.p256dh, input.keys.auth, deps.now().toISOString());
      return { ok: true as const };
    },
    async unsubscribe(userId: number, endpoint: string) {
      await repo.unsubscribe(userId, endpoint);
      return { ok: true as const };
    },
    async saveSettings(userId: number, settings: PushSettings) {
      await repo.saveSettings(userId, settings);
      return repo.settings(userId);
    },
    /** The minute's round: reminders that fell due are pushed once (again if their due date changes). */
    async pushDueReminders() {
      const now = deps.now().getTime();
      for (const userId of await repo.usersWithDevices()) {
        if (!(await repo.wants(userId, "reminders"))) continue;
        if (deps.delivers && !(await deps.delivers(userId, "reminders"))) continue;
        const timeZone = await deps.timeZone(userId);
        for (const reminder of await deps.reminders.list(userId)) {
          if (!reminderDueNow(reminderDueAt(reminder, timeZone), now)) continue;
          if (!(await repo.markReminderPushed(reminder.id, reminder.dueDate))) continue;
          await notify(userId, {
            kind: "reminders",
            title: reminder.title,
            body: reminder.description || "Your reminder is due.",
            url: reminder.conversationId ? `/conversations/${reminder.conversationId}` : "/conversations",
          });
        }
      }
    },
    /** What the scheduler tells: a run ended (how), or waits for the user's Approve. */
    runEvent(
      userId: number,
      kind: Extract<PushKind, "runs" | "approvals">,
      title: string,
      conversationId: number,
      outcome = "succeeded",
      /** What the notification says when the sender has its own words (a meeting's dossier is ready). */
      details: { body?: string } = {},
    ) {
      const url = `/conversations/${conversationId}`;
      const body =
        details.body ??
        (kind === "approvals"
          ? "A scheduled task is waiting for your approval."
          : outcome === "succeeded"
            ? "SAGE finished this scheduled task."
            : outcome === "not-approved"
              ? "This scheduled task stopped: a step was not approved."
              : "This scheduled task could not finish.");
      const payload: PushPayload = { kind, title, body, url };
      const sending = notify(userId, payload)
        .catch((error: unknown) => deps.warn("a push could not be sent", error))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    /** Settles when every push sent so far has been answered. */
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
