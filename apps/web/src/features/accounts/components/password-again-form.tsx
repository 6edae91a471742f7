import { useId, useState, type FormEvent } from "react";
import type { Account, UpdateAccountRequest } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useUpdateAccount } from "../api/accounts";

/** The PATCH that gives an account its secret again: the same servers, with the password (or the ICS address). */
function patchFor(
  account: Account,
  secret: string,
):
  | UpdateAccountRequest
  | { caldav: { url: string; user: string; password: string } }
  | { carddav: { url: string; user: string; password: string } }
  | { icsUrl: string } {
  if (account.kind === "mail") {
    return {
      imap: { ...account.imap, password: secret },
      ...(account.smtp ? { smtp: { ...account.smtp, password: secret } } : {}),
    };
  }
  if (account.kind === "contacts") return { carddav: { ...account.carddav, password: secret } };
  if (account.caldav) return { caldav: { ...account.caldav, password: secret } };
  return { icsUrl: secret };
}

/**
 * An account whose password SAGE cannot open (restored from a backup, which never holds one, or after the key file
 * was lost) asks for it here; saving it syncs the account again, going on from the mail already restored.
 */
export function PasswordAgainForm({ account }: { account: Account }) {
  const update = useUpdateAccount();
  const [secret, setSecret] = useState("");
  const inputId = useId();
  const ics = account.kind === "calendar" && !account.caldav;
  const label = ics ? "Secret address in iCal format" : "Password or app password";

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { id: account.id, patch: patchFor(account, secret) },
      { onSuccess: () => setSecret(""), onError: (error) => toastError({ error, fallback: "Failed to save the password" }) },
    );
  }

  return (
    <form onSubmit={submit} aria-label={`Enter the password of ${account.name}`} className="flex flex-col gap-1">
      <p className="text-sm">
        {ics
          ? "SAGE no longer has this calendar's secret address (a backup never holds one). Paste it again to go on syncing."
          : "SAGE no longer has this account's password (a backup never holds one). Enter it again to go on syncing."}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <Input
          id={inputId}
          type={ics ? "url" : "password"}
          autoComplete={ics ? "off" : "current-password"}
          placeholder={label}
          required
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          className="max-w-xs"
        />
        <Button type="submit" size="sm" disabled={update.isPending}>
          {ics ? "Save address" : "Save password"}
        </Button>
      </div>
    </form>
  );
}
