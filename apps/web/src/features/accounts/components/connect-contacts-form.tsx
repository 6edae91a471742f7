import { useId, useState, type FormEvent } from "react";
import { syncContactsText, type CreateAnyAccountRequest, type TestConnectionResponse } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCreateAccount, useTestConnection } from "../api/accounts";

const EMPTY = { name: "", url: "", user: "", password: "" };

/** What Test connection found: "Connection works: Contacts · 212 contacts." */
export function contactsTestText(tested: TestConnectionResponse): string {
  if (!tested.ok) return tested.message;
  if (!("addressBooks" in tested)) return "Connection works.";
  return `Connection works: ${tested.addressBooks.join(", ")} · ${syncContactsText(tested.contacts)}.`;
}

/** The form to connect an address book over CardDAV: its contacts feed the people pages; SAGE only reads it. */
export function ConnectContactsForm() {
  const [form, setForm] = useState(EMPTY);
  const [tested, setTested] = useState<TestConnectionResponse | null>(null);
  const create = useCreateAccount();
  const test = useTestConnection();
  const id = useId();
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setForm((old) => ({ ...old, [field]: value }));
    setTested(null);
  };
  const request = (): CreateAnyAccountRequest => ({
    kind: "contacts",
    name: form.name,
    carddav: { url: form.url, user: form.user, password: form.password },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(request(), {
      // An emptied form says nothing of what it held: the test's words go with it (issue 52 item 17).
      onSuccess: () => {
        setForm(EMPTY);
        setTested(null);
      },
      onError: (error) => toastError({ error, fallback: "Failed to connect the address book" }),
    });
  };
  const field = (name: keyof typeof EMPTY, label: string, props: { type?: string; autoComplete?: string; placeholder?: string } = {}) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${name}`} value={form[name]} onChange={(event) => set(name)(event.target.value)} required {...props} />
    </div>
  );

  return (
    <form onSubmit={submit} aria-label="Connect an address book" className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="font-semibold">Connect an address book</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Address book name")}
        {field("url", "CardDAV server address", { type: "url", placeholder: "https://contacts.icloud.com/" })}
        {field("user", "User name", { autoComplete: "username" })}
        {field("password", "Password or app password", { type: "password", autoComplete: "current-password" })}
      </div>
      <p className="text-sm text-muted-foreground">
        SAGE reads your contacts (names, addresses, organisations and roles) for the people pages and never changes them. iCloud and Fastmail need an app
        password.
      </p>
      {tested && (
        <p role="status" className={`text-sm ${tested.ok ? "text-green-700 dark:text-green-400" : "text-destructive"}`}>
          {contactsTestText(tested)}
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
