import { useId, useState, type FormEvent } from "react";
import type { CreateAccountRequest, TestConnectionResponse } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCreateAccount, useTestConnection } from "../api/accounts";

const EMPTY = {
  name: "",
  address: "",
  displayName: "",
  host: "",
  port: "993",
  secure: true,
  user: "",
  password: "",
  smtpHost: "",
  smtpPort: "465",
  smtpUser: "",
};
type Field = Exclude<keyof typeof EMPTY, "secure">;

/**
 * The form to connect a mail account with a password (any IMAP and SMTP server): the address mail is sent from and
 * the name shown with it, the servers, the login (SMTP's may differ), Test connection (receiving and sending, in
 * words), Connect.
 */
export function ConnectMailForm() {
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
      ...(form.address.trim() ? { address: form.address.trim() } : {}),
      ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
      imap,
      ...(form.smtpHost
        ? {
            smtp: {
              host: form.smtpHost,
              port: Number(form.smtpPort),
              secure: form.smtpPort === "465",
              user: form.smtpUser.trim() || form.user,
              password: form.password,
            },
          }
        : {}),
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(request(), {
      // An emptied form says nothing of what it held: the test's words go with it (issue 52 item 17).
      onSuccess: () => {
        setForm(EMPTY);
        setTested(null);
      },
      onError: (error) => toastError({ error, fallback: "Failed to connect the account" }),
    });
  };
  const field = (name: Field, label: string, props: { type?: string; autoComplete?: string; required?: boolean; placeholder?: string } = {}) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${name}`} value={form[name]} onChange={(event) => set(name)(event.target.value)} {...props} />
    </div>
  );

  return (
    <form onSubmit={submit} aria-label="Connect a mail account" className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="font-semibold">Connect a mail account with a password</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Account name", { required: true })}
        {field("address", "Your e-mail address", { type: "email", autoComplete: "email", placeholder: "anna@example.com" })}
        {field("displayName", "Your name, as recipients see it")}
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
        {field("smtpUser", "SMTP user name, if different")}
      </div>
      <p className="text-sm text-muted-foreground">
        Mail is sent from your e-mail address (by default the user name, when it is one). Gmail and Microsoft 365 need an app password here; signing in with
        Google or Microsoft above needs none.
      </p>
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
