import { useQuery } from "@tanstack/react-query";
import { triageListSchema, type TriageItem } from "@sage/contracts/triage";
import { formatDistanceStrict } from "date-fns";
import { Reply } from "lucide-react";
import { getJson } from "@/lib/api-client";

/** "Anna Berg" from "Anna Berg <anna@acme.example>". */
const senderName = (from: string) => from.replace(/\s*<[^>]*>\s*$/, "").replace(/^"|"$/g, "") || from;

/** GET /api/triage?label=needs-reply: the mail waiting for the user's answer, oldest first. */
export function useNeedsReply() {
  return useQuery({ queryKey: ["triage", "needs-reply"], queryFn: () => getJson("/api/triage?label=needs-reply", triageListSchema) });
}

/**
 * "Needs your reply" on the Today panel: sender, subject, how long it has waited, why, and whether a draft reply is
 * waiting in the Drafts folder. Shown only when something waits (nothing does while sorting is off).
 */
export function NeedsReply({ items, now }: { items: TriageItem[]; now: Date }) {
  return (
    <section aria-labelledby="today-needs-reply-heading" className="sm:col-span-2">
      <h3 id="today-needs-reply-heading" className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
        <Reply className="size-4" aria-hidden />
        {`Needs your reply (${items.length})`}
      </h3>
      <ul className="mt-1 grid gap-1">
        {items.map((item) => {
          const age = item.date ? formatDistanceStrict(new Date(item.date), now) : null;
          return (
            <li key={item.messageId} className="text-sm">
              <span className="font-medium">{senderName(item.from)}</span>
              {` · ${item.subject || "(no subject)"}`}
              {age && <span className="text-muted-foreground">{` · ${age}`}</span>}
              {item.urgent && <span className="text-destructive">{" · Urgent"}</span>}
              <span className="block text-xs text-muted-foreground">
                {item.reason}
                {item.draft ? ` Draft reply in ${item.draft.folder}.` : ""}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
