import { readingMessagesText, syncContactsText, syncEventsText, syncProgressText, type Account } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/toast-error";
import { useAccounts, useDeleteAccount, useSyncAccount } from "../api/accounts";
import { ConnectCalendarForm } from "./connect-calendar-form";
import { ConnectMailForm } from "./connect-mail-form";
import { ConnectContactsForm } from "./connect-contacts-form";
import { PasswordAgainForm } from "./password-again-form";
import { SignInButtons } from "./sign-in-buttons";
import { RemindersFeed } from "./reminders-feed";
import { TimeZoneSetting } from "./time-zone-setting";

const STATUS_LABELS: Record<Account["status"], string> = {
  syncing: "Syncing",
  ok: "Up to date",
  error: "Failed",
  "password-needed": "Password needed",
  "sign-in-needed": "Sign-in needed",
};

const PROVIDER_NAMES = { google: "Google", microsoft: "Microsoft", oidc: "your company's sign-in" } as const;

/**
 * "me@gmail.com on imap.gmail.com · 1,240 messages", "anna on dav.example.com · 12 events", "Subscription from
 * calendar.google.com · 3 events"; a signed-in one "anna@example.com, signed in with Google · 1,240 messages".
 */
function accountSummary(account: Account): string {
  if (account.kind === "contacts")
    return `${account.carddav.user} on ${new URL(account.carddav.url).hostname} · ${syncContactsText(account.counts.contacts ?? 0)}`;
  const signedIn = account.auth ? `${account.auth.user ?? "Not signed in yet"}, signed in with ${PROVIDER_NAMES[account.auth.provider]}` : null;
  if (account.kind === "mail") {
    const messages = `${(account.counts.messages ?? 0).toLocaleString("en-US")} messages`;
    const sender = account.address && account.address !== account.imap.user ? ` · sends as ${account.address}` : "";
    return `${signedIn ?? `${account.imap.user} on ${account.imap.host}`}${sender} · ${messages}`;
  }
  const events = syncEventsText(account.counts.events ?? 0);
  if (signedIn) return `${signedIn} · ${events}`;
  if (account.caldav) return `${account.caldav.user} on ${new URL(account.caldav.url).hostname} · ${events}`;
  return `Subscription from ${account.ics?.host ?? "the web"} · ${events}`;
}

/** "Synced 40 of 120 messages" while syncing; "Reading 12 messages" until what was synced can be found (issue 52 item 7). */
function statusText(account: Account): string {
  if (account.status === "syncing" && account.progress && account.progress.total > 0)
    return syncProgressText(account.progress.processed, account.progress.total);
  if (account.status === "ok" && (account.counts.reading ?? 0) > 0) return readingMessagesText(account.counts.reading ?? 0);
  return STATUS_LABELS[account.status];
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
          {statusText(account)}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">
        {accountSummary(account)}
        {account.lastSyncAt ? ` · last synced ${new Date(account.lastSyncAt).toLocaleString()}` : ""}
      </p>
      {account.error && <p className="text-sm break-words text-destructive">{account.error}</p>}
      {account.status === "password-needed" && !account.auth && <PasswordAgainForm account={account} />}
      {account.status === "sign-in-needed" && account.signInUrl && (
        <p className="text-sm">
          {account.auth?.user
            ? "The sign-in has expired or was withdrawn at the provider. Sign in again to go on syncing; nothing synced is lost."
            : "Sign in to connect this account."}{" "}
          <Button asChild size="sm" className="ml-1">
            <a href={account.signInUrl}>{account.auth?.user ? "Sign in again" : "Sign in"}</a>
          </Button>
        </p>
      )}
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

/** Settings > Accounts: this user's mail and calendar accounts, their sync, connecting another, and the reminders feed. */
export function AccountsSection() {
  const accounts = useAccounts();
  return (
    <section aria-labelledby="accounts-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="accounts-heading" className="text-lg font-semibold">
        Accounts
      </h2>
      <SignInButtons />
      <p className="text-sm text-muted-foreground">
        SAGE copies the mail of your INBOX and Sent folders into your knowledge base so the assistant can search it, checking for new mail every 2 minutes. It
        sends mail only after you approve each message. Calendars are read every 15 minutes; SAGE adds or changes an event only after you approve it. Your
        password, or the provider's sign-in, is stored encrypted and never shown again.
      </p>
      {accounts.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
      {accounts.isError && <p className="text-sm text-destructive">Failed to load the accounts</p>}
      {accounts.data?.map((account) => (
        <AccountCard key={account.id} account={account} />
      ))}
      <ConnectMailForm />
      <ConnectCalendarForm />
      <ConnectContactsForm />
      <TimeZoneSetting />
      <RemindersFeed />
    </section>
  );
}
