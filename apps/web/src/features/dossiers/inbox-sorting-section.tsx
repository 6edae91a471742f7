import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRIAGE_RULE_MAX, TRIAGE_RULES_MAX, TRIAGE_TEXTS, triageRulesSchema, triageSettingsSchema } from "@sage/contracts/triage";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { apiRequest, getJson } from "@/lib/api-client";

export const INBOX_SORTING_TEXTS = {
  intro:
    "SAGE gives every new mail one label (Needs your reply, Waiting on others, For your information, Newsletter, Automated) and says why. Your rules are applied first and always win.",
  sorting: "Sort my new mail",
  labelInMailbox: "Label in my mailbox",
  labelInMailboxHint:
    "Also mark each sorted mail on your mail server (as a keyword such as $SAGE-needs-reply), so other mail apps that show keywords can see it. Off unless you turn it on.",
  rules: "Your rules, one per line",
  rulesHint: 'For example: "Anything from the board is urgent" or "Newsletters never need a reply".',
  save: "Save rules",
  saved: "Rules saved",
  read: "How SAGE reads your rules",
} as const;

const SETTINGS_KEY = ["triage", "settings"] as const;
const RULES_KEY = ["triage", "rules"] as const;

/** Settings > Inbox: sorting on or off, and the user's rules (PUT /api/triage/rules), each shown as SAGE read it. */
export function InboxSortingSection() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: () => getJson("/api/triage/settings", triageSettingsSchema) });
  const rules = useQuery({ queryKey: RULES_KEY, queryFn: () => getJson("/api/triage/rules", triageRulesSchema) });
  const [text, setText] = useState("");
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (rules.data) setText(rules.data.rules.map((rule) => rule.text).join("\n"));
  }, [rules.data]);
  const toggle = useMutation({
    mutationFn: (body: { enabled: boolean } | { labelInMailbox: boolean }) =>
      apiRequest("/api/triage/settings", { method: "PUT", body, schema: triageSettingsSchema }),
    onSuccess: (next) => queryClient.setQueryData(SETTINGS_KEY, next),
  });
  const saveRules = useMutation({
    mutationFn: (lines: string[]) => apiRequest("/api/triage/rules", { method: "PUT", body: { rules: lines }, schema: triageRulesSchema }),
    onSuccess: (next) => {
      queryClient.setQueryData(RULES_KEY, next);
      setSaved(true);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    saveRules.mutate(
      text
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    );
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-4">
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        Inbox
      </h2>
      <p className="text-sm text-muted-foreground">{INBOX_SORTING_TEXTS.intro}</p>
      {settings.data && (
        <>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={settings.data.enabled}
              disabled={toggle.isPending}
              onChange={(event) => toggle.mutate({ enabled: event.target.checked })}
            />
            {INBOX_SORTING_TEXTS.sorting}
          </label>
          <div className="grid gap-1">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={settings.data.labelInMailbox}
                disabled={toggle.isPending}
                aria-describedby={`${id}-label-hint`}
                onChange={(event) => toggle.mutate({ labelInMailbox: event.target.checked })}
              />
              {INBOX_SORTING_TEXTS.labelInMailbox}
            </label>
            <p id={`${id}-label-hint`} className="text-xs text-muted-foreground">
              {INBOX_SORTING_TEXTS.labelInMailboxHint}
            </p>
          </div>
          {!settings.data.modelAvailable && <p className="text-sm text-muted-foreground">{TRIAGE_TEXTS.noModel}</p>}
        </>
      )}
      <form noValidate onSubmit={submit} className="grid gap-2">
        <Label htmlFor={`${id}-rules`}>{INBOX_SORTING_TEXTS.rules}</Label>
        <p className="text-xs text-muted-foreground">{INBOX_SORTING_TEXTS.rulesHint}</p>
        <Textarea
          id={`${id}-rules`}
          rows={6}
          value={text}
          maxLength={TRIAGE_RULES_MAX * (TRIAGE_RULE_MAX + 1)}
          onChange={(event) => {
            setText(event.target.value);
            setSaved(false);
          }}
        />
        {saveRules.isError && (
          <p role="alert" className="text-sm text-destructive">
            {saveRules.error instanceof Error ? saveRules.error.message : TRIAGE_TEXTS.rulesInvalid}
          </p>
        )}
        <div className="flex items-center gap-3">
          <Button type="submit" size="sm" disabled={saveRules.isPending}>
            {INBOX_SORTING_TEXTS.save}
          </Button>
          {saved && (
            <span role="status" className="text-sm text-muted-foreground">
              {INBOX_SORTING_TEXTS.saved}
            </span>
          )}
        </div>
      </form>
      {rules.data && rules.data.rules.length > 0 && (
        <section aria-labelledby={`${id}-read`} className="grid gap-1">
          <h3 id={`${id}-read`} className="text-sm font-medium">
            {INBOX_SORTING_TEXTS.read}
          </h3>
          <ul className="grid gap-1 text-sm">
            {rules.data.rules.map((rule) => (
              <li key={rule.text}>
                <span className="font-medium">{rule.text}</span>
                <span className="text-muted-foreground">{` — ${rule.meaning}`}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
