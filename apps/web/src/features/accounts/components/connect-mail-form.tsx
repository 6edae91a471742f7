import type { CreateAccountRequest } from "@sage/contracts/accounts";
import { useConnectForm } from "./use-connect-form";

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

/**
 * The form to connect a mail account with a password (any IMAP and SMTP server): the address mail is sent from and
 * the name shown with it, the servers, the login (SMTP's may differ), Test connection (receiving and sending, in
 * words), Connect.
 */
export function ConnectMailForm() {
  const { form, set, field, submit, footer } = useConnectForm({
    empty: EMPTY,
    request: (form): CreateAccountRequest => {
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
    },
    failure: "Failed to connect the account",
    testText: (tested) => ("message" in tested ? tested.message : "Connection works."),
  });

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
      {footer}
    </form>
  );
}
