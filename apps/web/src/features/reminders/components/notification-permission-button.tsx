import { BellRingIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";

const NOTIFICATIONS_BLOCKED_TOAST = {
  title: "Notifications are blocked",
  description:
    "The browser refused notifications, so SAGE can only remind you while it is open. Allow notifications for this site in the browser's settings to be told when a reminder is due.",
};
const NOTIFICATIONS_ON_TOAST = { title: "Notifications on", description: "SAGE will notify you when a reminder is due." };

/** Offered only while the browser has not been asked yet; the answer is the browser's to keep, and is said aloud. */
export function NotificationPermissionButton() {
  const supported = typeof window !== "undefined" && "Notification" in window;
  const [permission, setPermission] = useState(() => (supported ? Notification.permission : "denied"));
  if (!supported || permission !== "default") return null;

  async function ask() {
    let answer: NotificationPermission = "denied";
    try {
      answer = await Notification.requestPermission();
    } catch {
      // Some browsers throw instead of answering: that is a refusal too.
    }
    setPermission(answer);
    if (answer === "granted") toast(NOTIFICATIONS_ON_TOAST);
    // 'default' means the prompt was dismissed: the button stays, nothing to say.
    else if (answer === "denied") toast({ ...NOTIFICATIONS_BLOCKED_TOAST, variant: "warning" });
  }

  return (
    <Button type="button" size="sm" variant="outline" onClick={() => void ask()}>
      <BellRingIcon aria-hidden />
      Notify me when due
    </Button>
  );
}
