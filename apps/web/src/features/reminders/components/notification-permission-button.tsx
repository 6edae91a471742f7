import { BellRingIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Offered only while the browser has not been asked yet; the answer is the browser's to keep. */
export function NotificationPermissionButton() {
  const supported = typeof window !== "undefined" && "Notification" in window;
  const [permission, setPermission] = useState(() => (supported ? Notification.permission : "denied"));
  if (!supported || permission !== "default") return null;
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      onClick={() => void Notification.requestPermission().then(setPermission, () => undefined)}
    >
      <BellRingIcon aria-hidden />
      Notify me when due
    </Button>
  );
}
