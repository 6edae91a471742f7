import { useId, useState, type FormEvent } from "react";
import { useSearchParams } from "wouter";
import { SIGN_IN_RESULT_PARAM, SIGN_IN_RESULT_TEXTS, SIGN_IN_RESULTS, type OAuthProvider, type SignInResult } from "@sage/contracts/oauth";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useOAuthProviders, useSignInAccount } from "../api/accounts";

/** What came back from the provider (?signIn=connected), said once above the buttons. */
function SignInResultNote() {
  const [searchParams] = useSearchParams();
  const value = searchParams.get(SIGN_IN_RESULT_PARAM);
  if (!value || !SIGN_IN_RESULTS.includes(value as SignInResult)) return null;
  const result = value as SignInResult;
  return (
    <p role="status" className={`text-sm ${result === "connected" ? "text-green-700 dark:text-green-400" : "text-destructive"}`}>
      {SIGN_IN_RESULT_TEXTS[result]}
    </p>
  );
}

/** The company's own server: its IMAP (and SMTP) server is asked first, then the company's sign-in page. */
function CompanySignIn({ provider }: { provider: OAuthProvider }) {
  const [form, setForm] = useState({ host: "", port: "993", secure: true, smtpHost: "", smtpPort: "587" });
  const signIn = useSignInAccount();
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      {
        kind: "mail",
        auth: { provider: "oidc" },
        calendar: false,
        imap: { host: form.host, port: Number(form.port), secure: form.secure },
        ...(form.smtpHost ? { smtp: { host: form.smtpHost, port: Number(form.smtpPort), secure: form.smtpPort === "465" } } : {}),
      },
      { onError: (error) => toastError({ error, fallback: "Failed to start the sign-in" }) },
    );
  };
  const field = (name: "host" | "port" | "smtpHost" | "smtpPort", label: string, required = false) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${name}`} value={form[name]} required={required} onChange={(event) => setForm((old) => ({ ...old, [name]: event.target.value }))} />
    </div>
  );
  return (
    <form onSubmit={submit} aria-label={`Sign in with ${provider.name}`} className="flex flex-col gap-2 rounded-md border p-3">
      <p className="text-sm">Your company's mail server, then your company's sign-in page.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("host", "IMAP server", true)}
        {field("port", "IMAP port", true)}
        {field("smtpHost", "SMTP server, for sending (optional)")}
        {field("smtpPort", "SMTP port")}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={form.secure} onChange={(event) => setForm((old) => ({ ...old, secure: event.target.checked }))} />
        Secure connection (TLS)
      </label>
      <div>
        <Button type="submit" disabled={signIn.isPending}>
          Sign in with {provider.name}
        </Button>
      </div>
    </form>
  );
}

/**
 * "Sign in with Google" and "Sign in with Microsoft" (and the company's, when the operator set it up): one click
 * connects the mail and the calendar, with no password. A provider the operator has not registered shows its button
 * disabled, with what must be set.
 */
export function SignInButtons() {
  const providers = useOAuthProviders();
  const signIn = useSignInAccount();
  const [company, setCompany] = useState(false);
  const shown = (providers.data ?? []).filter((provider) => provider.id !== "oidc" || provider.configured);
  return (
    <section aria-label="Sign in to connect mail and calendar" className="flex flex-col gap-2 rounded-lg border p-3">
      <h3 className="font-semibold">Connect your mail and calendar</h3>
      <SignInResultNote />
      {providers.isError && <p className="text-sm text-destructive">Failed to load the sign-in choices</p>}
      <div className="flex flex-wrap gap-2">
        {shown.map((provider) =>
          provider.id === "oidc" ? (
            <Button key={provider.id} type="button" variant="outline" aria-expanded={company} onClick={() => setCompany((open) => !open)}>
              Sign in with {provider.name}
            </Button>
          ) : (
            <Button
              key={provider.id}
              type="button"
              disabled={!provider.configured || signIn.isPending}
              aria-describedby={provider.setup ? `setup-${provider.id}` : undefined}
              onClick={() =>
                signIn.mutate(
                  { kind: "mail", auth: { provider: provider.id } },
                  { onError: (error) => toastError({ error, fallback: "Failed to start the sign-in" }) },
                )
              }
            >
              Sign in with {provider.name}
            </Button>
          ),
        )}
      </div>
      {shown
        .filter((provider) => provider.setup)
        .map((provider) => (
          <p key={provider.id} id={`setup-${provider.id}`} className="text-sm text-muted-foreground">
            {provider.setup}
          </p>
        ))}
      {company && shown.some((provider) => provider.id === "oidc") && <CompanySignIn provider={shown.find((provider) => provider.id === "oidc")!} />}
      <p className="text-sm text-muted-foreground">
        Your provider's page asks you to allow SAGE to read and send your mail and manage your calendar. SAGE keeps the sign-in, never your password, and sends
        nothing without your approval.
      </p>
    </section>
  );
}
