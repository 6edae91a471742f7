import { syncContactsText, type TestConnectionResponse } from "@sage/contracts/accounts";
import { useConnectForm } from "./use-connect-form";

const EMPTY = { name: "", url: "", user: "", password: "" };

/** What Test connection found: "Connection works: Contacts · 212 contacts." */
export function contactsTestText(tested: TestConnectionResponse): string {
  if (!tested.ok) return tested.message;
  if (!("addressBooks" in tested)) return "Connection works.";
  return `Connection works: ${tested.addressBooks.join(", ")} · ${syncContactsText(tested.contacts)}.`;
}

/** The form to connect an address book over CardDAV: its contacts feed the people pages; SAGE only reads it. */
export function ConnectContactsForm() {
  const { field, submit, footer } = useConnectForm({
    empty: EMPTY,
    request: (form) => ({ kind: "contacts", name: form.name, carddav: { url: form.url, user: form.user, password: form.password } }),
    failure: "Failed to connect the address book",
    testText: contactsTestText,
    required: true,
  });

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
      {footer}
    </form>
  );
}
