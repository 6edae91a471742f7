import type { PushKind, PushSettings } from "@sage/contracts/push";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/toast-error";
import { usePushActions, usePushStatus } from "../api";

export const NOTIFICATION_TEXTS = {
  unsupported: "This browser cannot receive notifications from SAGE. On a phone, install SAGE to the home screen first.",
  blocked: "Notifications are blocked for SAGE in this browser's settings; allow them there, then turn them on here.",
  on: "Notifications are on for this device.",
  off: "Notifications are off for this device.",
} as const;

const KINDS: { kind: PushKind; label: string }[] = [
  { kind: "reminders", label: "Reminders when they are due" },
  { kind: "runs", label: "A scheduled task finished" },
  { kind: "approvals", label: "A scheduled task waits for my approval" },
];

const failed = (error: unknown) => toastError({ error, fallback: "Something went wrong" });

/** The service worker's push registration, when this browser has one (production builds register /sw.js). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator) || typeof window.PushManager === "undefined") return undefined;
  return navigator.serviceWorker.getRegistration("/");
}

const keyBytes = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));

/** Settings > User Preferences: push notifications on this device, and which kinds (decision 041). */
export function NotificationsSection() {
  const status = usePushStatus();
  const actions = usePushActions();
  const [device, setDevice] = useState<"unsupported" | "on" | "off" | "checking">("checking");

  useEffect(() => {
    void registration().then(async (found) => {
      if (!found) return setDevice("unsupported");
      setDevice((await found.pushManager.getSubscription()) ? "on" : "off");
    });
  }, []);

  const turnOn = async () => {
    try {
      const found = await registration();
      if (!found || !status.data) return setDevice("unsupported");
      if ((await Notification.requestPermission()) !== "granted") return toastError({ description: NOTIFICATION_TEXTS.blocked });
      const subscription = await found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(status.data.publicKey) });
      await actions.subscribe.mutateAsync(subscription.toJSON());
      setDevice("on");
    } catch (error) {
      failed(error);
    }
  };
  const turnOff = async () => {
    try {
      const subscription = await (await registration())?.pushManager.getSubscription();
      if (subscription) {
        await actions.unsubscribe.mutateAsync(subscription.endpoint);
        await subscription.unsubscribe();
      }
      setDevice("off");
    } catch (error) {
      failed(error);
    }
  };
  const settings = status.data?.settings;
  const toggle = (kind: PushKind, on: boolean) => settings && actions.saveSettings.mutate({ ...settings, [kind]: on } as PushSettings, { onError: failed });

  return (
    <section aria-labelledby="notifications-heading" className="grid gap-3 rounded-md border p-4">
      <h2 id="notifications-heading" className="text-lg font-semibold">
        Notifications
      </h2>
      {device === "unsupported" ? (
        <p className="text-sm text-muted-foreground">{NOTIFICATION_TEXTS.unsupported}</p>
      ) : device !== "checking" ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm">{device === "on" ? NOTIFICATION_TEXTS.on : NOTIFICATION_TEXTS.off}</p>
          {device === "on" ? (
            <Button type="button" variant="outline" size="sm" onClick={() => void turnOff()}>
              Turn off on this device
            </Button>
          ) : (
            <Button type="button" size="sm" disabled={!status.data} onClick={() => void turnOn()}>
              Turn on notifications on this device
            </Button>
          )}
        </div>
      ) : null}
      {settings && (
        <fieldset className="grid gap-2 text-sm">
          <legend className="mb-1 font-medium">Notify me about</legend>
          {KINDS.map(({ kind, label }) => (
            <label key={kind} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={settings[kind]}
                disabled={actions.saveSettings.isPending}
                onChange={(event) => toggle(kind, event.target.checked)}
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
    </section>
  );
}
