import { useState } from "react";
import { Link } from "wouter";
import type { Channel, PairingResponse } from "@sage/contracts/channels";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/toast-error";
import { useAllowGroup, useChannels, useDeleteChannel, useNewPairingCode } from "../api/channels";
import { channelLabel } from "./channel-label";
import { ConnectChannelForm, type ChannelMailAccount } from "./connect-channel-form";
import { DeliveryTargets } from "./delivery-targets";

export const CHANNEL_STATUS_LABELS: Record<Channel["status"], string> = {
  unpaired: "Waiting for the code",
  paired: "Connected",
  error: "Not working",
};

/** The one-time code, shown once after it is made, with how to send it. */
function PairingCode({ pairing }: { pairing: PairingResponse }) {
  return (
    <div className="flex flex-col gap-1 rounded-md border border-dashed p-3" data-testid="pairing-code">
      <p className="text-sm">Send this code from your own chat to connect it:</p>
      <p className="font-mono text-2xl font-semibold tracking-widest" aria-label="Pairing code">
        {pairing.pairingCode}
      </p>
      <p className="text-sm text-muted-foreground">
        {/^https:\/\//.test(pairing.pairingHint) ? (
          <>
            Send it to your bot, or open{" "}
            <a href={pairing.pairingHint} target="_blank" rel="noreferrer" className="underline">
              {pairing.pairingHint}
            </a>{" "}
            on your phone and press Start.
          </>
        ) : (
          pairing.pairingHint
        )}{" "}
        The code works until {new Date(pairing.pairingExpiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.
      </p>
    </div>
  );
}

function ChannelCard({ channel, pairing, onPairing }: { channel: Channel; pairing: PairingResponse | null; onPairing(pairing: PairingResponse): void }) {
  const newCode = useNewPairingCode();
  const allowGroup = useAllowGroup();
  const remove = useDeleteChannel();
  const headingId = `channel-${channel.id}`;
  const showCode = pairing && channel.status !== "paired" && new Date(pairing.pairingExpiresAt).getTime() > Date.now();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-lg border p-3" data-testid="channel">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {channelLabel(channel)}
        </h3>
        <span className={`text-sm ${channel.status === "error" ? "text-destructive" : ""}`} role="status">
          {CHANNEL_STATUS_LABELS[channel.status]}
        </span>
      </div>
      {channel.chat && (
        <p className="text-sm">
          {channel.chat.group ? "Group chat" : "Chat"} with <span className="font-medium">{channel.chat.title}</span>
          {channel.conversationId !== null && (
            <>
              {" · "}
              <Link href={`/conversations/${channel.conversationId}`} className="underline">
                Open the conversation
              </Link>
            </>
          )}
        </p>
      )}
      {channel.error && <p className="text-sm break-words text-destructive">{channel.error}</p>}
      {channel.unsent > 0 && (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          {channel.unsent === 1 ? "1 message" : `${channel.unsent} messages`} could not be delivered. They are kept in the conversation.
        </p>
      )}
      {channel.refused.count > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="channel-refused">
          {channel.refused.count === 1 ? "1 message" : `${channel.refused.count} messages`} from other people or chats refused, never read by the assistant
          {channel.refused.lastAt ? ` (last ${new Date(channel.refused.lastAt).toLocaleString()})` : ""}.
        </p>
      )}
      {showCode && <PairingCode pairing={pairing} />}
      {channel.status !== "paired" && channel.kind !== "email" && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={channel.allowGroup}
            disabled={allowGroup.isPending}
            onChange={(event) =>
              allowGroup.mutate(
                { id: channel.id, allowGroup: event.target.checked },
                { onError: (error) => toastError({ error, fallback: "Failed to save the setting" }) },
              )
            }
          />
          Allow a group chat to connect with the code (otherwise only your own private chat)
        </label>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={newCode.isPending}
          onClick={() => newCode.mutate(channel.id, { onSuccess: onPairing, onError: (error) => toastError({ error, fallback: "Failed to make a new code" }) })}
        >
          {channel.status === "paired" ? "Connect another chat" : "New code"}
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Disconnect ${channelLabel(channel)}? Its conversation stays in SAGE.`)) return;
            remove.mutate(channel.id, { onError: (error) => toastError({ error, fallback: "Failed to disconnect the channel" }) });
          }}
        >
          Disconnect
        </Button>
      </div>
    </section>
  );
}

/**
 * Settings > Channels: Telegram, Slack and e-mail as ways to talk to SAGE (issue 49). Connecting shows a one-time code;
 * the chat that sends it is the user's from then on. Below, where the briefing, reminders, runs and approvals go.
 */
export function ChannelsSection({ mailAccounts }: { mailAccounts: ChannelMailAccount[] }) {
  const channels = useChannels();
  const [pairings, setPairings] = useState<Record<number, PairingResponse>>({});
  const remember = (pairing: PairingResponse) => setPairings((old) => ({ ...old, [pairing.id]: pairing }));
  const list = channels.data?.channels ?? [];
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="channels-heading" className="flex flex-col gap-3 rounded-xl border p-4">
        <h2 id="channels-heading" className="text-lg font-semibold">
          Channels
        </h2>
        <p className="text-sm text-muted-foreground">
          Talk to SAGE from Telegram, Slack or e-mail. Connect your own bot, then send the code SAGE shows from your own chat: from then on that chat is yours,
          and messages from anyone else are refused and never read. Sends and changes still wait for your Approve, in the chat or here. Bot tokens are stored
          encrypted and never shown again.
        </p>
        {channels.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
        {channels.isError && <p className="text-sm text-destructive">Failed to load the channels</p>}
        {channels.data && list.length === 0 && <p className="text-sm text-muted-foreground">No channel is connected yet.</p>}
        {list.map((channel) => (
          <ChannelCard key={channel.id} channel={channel} pairing={pairings[channel.id] ?? null} onPairing={remember} />
        ))}
        <ConnectChannelForm mailAccounts={mailAccounts} onConnected={remember} />
      </section>
      <DeliveryTargets channels={list} />
    </div>
  );
}
