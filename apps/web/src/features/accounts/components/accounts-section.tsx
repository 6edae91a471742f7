import { useId, useState, type FormEvent } from "react";
import { syncEventsText, syncProgressText, type Account, type CreateAccountRequest, type TestConnectionResponse } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useAccounts, useCreateAccount, useDeleteAccount, useSyncAccount, useTestConnection } from "../api/accounts";
import { ConnectCalendarForm } from "./connect-calendar-form";
import { PasswordAgainForm } from "./password-again-form";
import { RemindersFeed } from "./reminders-feed";
import { TimeZoneSetting } from "./time-zone-setting";

const STATUS_LABELS: Record<Account["status"], string> = {
  syncing: "Syncing",
  ok: "Up to date",
  error: "Failed",
  "password-needed": "Password needed",
  "sign-in-needed": "Sign-in needed",
};

/** "me@gmail.com on imap.gmail.com · 1,240 messages", "anna on dav.example.com · 12 events", "Subscription from calendar.google.com · 3 events". */
function accountSummary(account: Account): string {
  if (account.kind === "mail") return `${account.imap.user} on ${account.imap.host} · ${(account.counts.messages ?? 0).toLocaleString("en-US")} messages`;
  const events = syncEventsText(account.counts.events ?? 0);
  if (account.caldav) return `${account.caldav.user} on ${new URL(account.caldav.url).hostname} · ${events}`;
  return `Subscription from ${account.ics?.host ?? "the web"} · ${events}`;
}

function AccountCard({ account }: { account: Account }) {
  const sync = useSyncAccount();
  const remove = useDeleteAccount();
  const headingId = `account-${account.id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1 rounded-lg border p-3" data-testid="mail-account">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {account.name}
        </h3>
        <span className="text-sm" role="status">
          {account.status === "syncing" && account.progress && account.progress.total > 0
            ? syncProgressText(account.progress.processed, account.progress.total)
            : STATUS_LABELS[account.status]}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">
        {accountSummary(account)}
        {account.lastSyncAt ? ` · last synced ${new Date(account.lastSyncAt).toLocaleString()}` : ""}
      </p>
      {account.error && <p className="text-sm break-words text-destructive">{account.error}</p>}
      {account.status === "password-needed" && <PasswordAgainForm account={account} />}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={sync.isPending || account.status === "syncing"}
          onClick={() => sync.mutate(account.id, { onError: (error) => toastError({ error, fallback: "Failed to start the sync" }) })}
        >
          Sync now
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Remove "${account.name}" and all the mail SAGE copied from it?`)) return;
            remove.mutate(account.id, { onError: (error) => toastError({ error, fallback: "Failed to remove the account" }) });
          }}
        >
          Remove
        </Button>
      </div>
    </section>
  );
}

const EMPTY = { name: "", host: "", port: "993", secure: true, user: "", password: "", smtpHost: "", smtpPort: "465" };

/** The form to connect a mail account: labelled fields, Test connection, Connect. */
function ConnectForm() {
  const [form, setForm] = useState(EMPTY);
  const [tested, setTested] = useState<TestConnectionResponse | null>(null);
  const create = useCreateAccount();
  const test = useTestConnection();
  const id = useId();
  const set = (field: keyof typeof EMPTY) => (value: string | boolean) => {
    setForm((old) => ({ ...old, [field]: value }));
    setTested(null);
  };
  const request = (): CreateAccountRequest => {
    const imap = { host: form.host, port: Number(form.port), secure: form.secure, user: form.user, password: form.password };
    return {
      kind: "mail",
      name: form.name,
      imap,
      ...(form.smtpHost
        ? { smtp: { host: form.smtpHost, port: Number(form.smtpPort), secure: form.smtpPort === "465", user: form.user, password: form.password } }
        : {}),
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(request(), {
      onSuccess: () => setForm(EMPTY),
      onError: (error) => toastError({ error, fallback: "Failed to connect the account" }),
    });
  };
  const field = (name: keyof typeof EMPTY, label: string, props: { type?: string; autoComplete?: string; required?: boolean } = {}) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${name}`} value={String(form[name])} onChange={(event) => set(name)(event.target.value)} {...props} />
    </div>
  );

  return (
    <form onSubmit={submit} aria-label="Connect a mail account" className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="font-semibold">Connect a mail account</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Account name", { required: true })}
        {field("user", "User name (e-mail address)", { required: true, autoComplete: "username" })}
        {field("host", "IMAP server", { required: true })}
        {field("port", "IMAP port", { required: true })}
        {field("password", "Password or app password", { type: "password", required: true, autoComplete: "current-password" })}
        <label className="flex items-center gap-2 self-end text-sm">
          <input type="checkbox" checked={form.secure} onChange={(event) => set("secure")(event.target.checked)} />
          Secure connection (TLS)
        </label>
        {field("smtpHost", "SMTP server, for sending (optional)")}
        {field("smtpPort", "SMTP port")}
      </div>
      <p className="text-sm text-muted-foreground">Gmail and Microsoft 365 need an app password here, not your usual password.</p>
      {tested && (
        <p role="status" className={`text-sm ${tested.ok ? "text-green-700 dark:text-green-400" : "text-destructive"}`}>
          {"message" in tested ? tested.message : "Connection works."}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() => test.mutate(request(), { onSuccess: setTested, onError: (error) => toastError({ error, fallback: "Failed to test the connection" }) })}
        >
          {test.isPending ? "Testing..." : "Test connection"}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          Connect
        </Button>
      </div>
    </form>
  );
}

/** Settings > Accounts: this user's mail and calendar accounts, their sync, connecting another, and the reminders feed. */
export function AccountsSection() {
  const accounts = useAccounts();
  return (
    <section aria-labelledby="accounts-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="accounts-heading" className="text-lg font-semibold">
        Accounts
      </h2>
      <p className="text-sm text-muted-foreground">
        SAGE copies the mail of your INBOX and Sent folders into your knowledge base so the assistant can search it, checking for new mail every 2 minutes. It
        sends mail only after you approve each message. Calendars are read every 15 minutes; SAGE adds or changes an event only after you approve it. Your
        password is stored encrypted and never shown again.
      </p>
      {accounts.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
      {accounts.isError && <p className="text-sm text-destructive">Failed to load the accounts</p>}
      {accounts.data?.map((account) => (
        <AccountCard key={account.id} account={account} />
      ))}
      <ConnectForm />
      <ConnectCalendarForm />
      <TimeZoneSetting />
      <RemindersFeed />
    </section>
  );
}
