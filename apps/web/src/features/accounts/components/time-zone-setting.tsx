import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useSaveTimeZone, useTimeZone } from "../api/accounts";

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const knownZones = () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);

/** The time zone calendars are read in: the user's saved one, else this browser's, offered to save. */
export function TimeZoneSetting() {
  const setting = useTimeZone();
  const save = useSaveTimeZone();
  const [typed, setTyped] = useState<string | null>(null);
  const id = useId();
  const proposed = setting.data?.saved ? setting.data.timeZone : browserZone();
  const value = typed ?? proposed ?? "";
  const unsaved = !setting.data?.saved || value !== setting.data.timeZone;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-zone`} className="text-sm font-medium">
        Your time zone
      </label>
      <div className="flex flex-wrap gap-2">
        <Input id={`${id}-zone`} list={`${id}-zones`} className="max-w-xs" value={value} onChange={(event) => setTyped(event.target.value)} />
        <datalist id={`${id}-zones`}>
          {knownZones().map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <Button
          type="button"
          variant="outline"
          disabled={!setting.data || save.isPending || !unsaved}
          onClick={() =>
            save.mutate(value.trim(), {
              onSuccess: () => setTyped(null),
              onError: (error) => toastError({ error, fallback: "Failed to save the time zone" }),
            })
          }
        >
          Save time zone
        </Button>
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {setting.data?.saved
          ? `Calendars and free time are read in ${setting.data.timeZone}.`
          : setting.data
            ? `Calendars are read in ${setting.data.timeZone} until you save yours.`
            : ""}
      </p>
    </div>
  );
}
