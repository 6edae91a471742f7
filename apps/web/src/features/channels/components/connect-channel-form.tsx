import { useId, useState, type FormEvent } from "react";
import { CHANNEL_KINDS, CHANNEL_TEXTS, type ChannelKind, type CreateChannelInput, type PairingResponse } from "@sage/contracts/channels";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCreateChannel } from "../api/channels";

/** A mail account the e-mail channel can read and answer with (Settings > Accounts). */
export interface ChannelMailAccount {
  id: number;
  name: string;
  address: string | null;
}

const EMPTY = {
  kind: "telegram" as ChannelKind,
  token: "",
  botToken: "",
  slackMode: "socket" as "socket" | "events",
  appToken: "",
  signingSecret: "",
  accountId: "",
  address: "",
};

const HELP: Record<ChannelKind, string> = {
  telegram: "In Telegram, write to @BotFather, send /newbot, choose a name, and copy the token it gives you.",
  slack:
    "At api.slack.com/apps, create an app for your workspace, add the bot scopes chat:write, im:history and users:read, subscribe to the message.im event, install it, and copy the Bot User OAuth Token (xoxb-). For Socket Mode, turn it on and make an app-level token with connections:write (xapp-); for the Events API, copy the signing secret.",
  email:
    "Pick the mail account SAGE reads and answers from, and the address you will write or forward to: the account's own address (a mailbox just for SAGE) or a plus-address of it, such as you+sage@example.com.",
};

/** Connect a Telegram bot, a Slack app or an e-mail address; the answer's pairing code is handed up to be shown. */
export function ConnectChannelForm({ mailAccounts, onConnected }: { mailAccounts: ChannelMailAccount[]; onConnected(pairing: PairingResponse): void }) {
  const [form, setForm] = useState(EMPTY);
  const create = useCreateChannel();
  const id = useId();
  const set = (field: keyof typeof EMPTY) => (value: string) => setForm((old) => ({ ...old, [field]: value }));
  const request = (): CreateChannelInput => {
    if (form.kind === "telegram") return { kind: "telegram", token: form.token };
    if (form.kind === "slack")
      return form.slackMode === "socket"
        ? { kind: "slack", botToken: form.botToken, appToken: form.appToken }
        : { kind: "slack", botToken: form.botToken, signingSecret: form.signingSecret };
    return { kind: "email", accountId: Number(form.accountId), address: form.address };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(request(), {
      onSuccess: (pairing) => {
        setForm({ ...EMPTY, kind: form.kind });
        onConnected(pairing);
      },
      onError: (error) => toastError({ error, fallback: "Failed to connect the channel" }),
    });
  };
  const field = (name: "token" | "botToken" | "appToken" | "signingSecret" | "address", label: string, props: { type?: string; placeholder?: string } = {}) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input
        id={`${id}-${name}`}
        value={form[name]}
        onChange={(event) => set(name)(event.target.value)}
        required
        autoComplete="off"
        spellCheck={false}
        {...props}
      />
    </div>
  );

  return (
    <form onSubmit={submit} aria-label="Connect a channel" className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="font-semibold">Connect a channel</h3>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Kind of channel</legend>
        {CHANNEL_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2">
            <input type="radio" name={`${id}-kind`} checked={form.kind === kind} onChange={() => set("kind")(kind)} />
            {CHANNEL_TEXTS.kindNames[kind]}
          </label>
        ))}
      </fieldset>
      <p className="text-sm text-muted-foreground">{HELP[form.kind]}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {form.kind === "telegram" && field("token", "Bot token", { type: "password", placeholder: "123456789:AA..." })}
        {form.kind === "slack" && (
          <>
            {field("botToken", "Bot token", { type: "password", placeholder: "xoxb-..." })}
            <fieldset className="flex flex-col gap-1 text-sm">
              <legend className="font-medium">How Slack reaches SAGE</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name={`${id}-mode`} checked={form.slackMode === "socket"} onChange={() => set("slackMode")("socket")} />
                Socket Mode (no public address needed)
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name={`${id}-mode`} checked={form.slackMode === "events"} onChange={() => set("slackMode")("events")} />
                Events API (Slack posts to SAGE)
              </label>
            </fieldset>
            {form.slackMode === "socket"
              ? field("appToken", "App-level token", { type: "password", placeholder: "xapp-..." })
              : field("signingSecret", "Signing secret", { type: "password" })}
          </>
        )}
        {form.kind === "email" && (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-account`} className="text-sm font-medium">
                Mail account
              </label>
              <select
                id={`${id}-account`}
                className="h-9 rounded-md border bg-background px-2 text-sm"
                value={form.accountId}
                onChange={(event) => set("accountId")(event.target.value)}
                required
              >
                <option value="">Choose an account</option>
                {mailAccounts.map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.address ? `${account.name} (${account.address})` : account.name}
                  </option>
                ))}
              </select>
            </div>
            {field("address", "Address to write to SAGE at", { type: "email", placeholder: "you+sage@example.com" })}
          </>
        )}
      </div>
      {form.kind === "email" && mailAccounts.length === 0 && (
        <p className="text-sm text-muted-foreground">Connect a mail account with an SMTP server in Settings &gt; Accounts first.</p>
      )}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Connecting..." : "Connect"}
        </Button>
      </div>
    </form>
  );
}
