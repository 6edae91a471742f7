import type { PrivateAddressRule } from "./allowed-host.ts";
import { classifyImapFailure, imapClientFor, type ImapServer } from "./imap-client.ts";
import { MailConnectionError } from "./mail-connection-error.ts";

/** New mail is also looked for this often, should the server's IDLE notice go missing (a proxy that drops it). */
const LOOK_AGAIN_MS = 5 * 60_000;

/** A message that arrived in the watched folder: its UID, its envelope (nothing of the body is parsed here), its size. */
export interface ArrivedMail {
  uid: number;
  from: { address: string; name: string } | null;
  /** Every To and Cc address, lower-cased. */
  recipients: string[];
  subject: string;
  messageId: string | null;
  size: number;
}

/**
 * Watches one folder with IMAP IDLE (RFC 2177): hands over the envelope of every message with a UID above `afterUid`
 * (at start, the ones that came while nobody watched; then each as the server announces it), in UID order, until the
 * signal aborts.
 * `afterUid` null starts at the folder's end: mail already there is not a message to SAGE. Rejects with a
 * MailConnectionError when the connection fails (the caller starts it again later).
 */
export async function watchMailbox(
  server: ImapServer,
  rule: PrivateAddressRule,
  options: {
    folder: string;
    afterUid: number | null;
    signal: AbortSignal;
    ready?(): void;
    arrived(mail: ArrivedMail[], lastUid: number): Promise<void>;
  },
): Promise<void> {
  // IDLE as soon as no command runs (imapflow waits 15 s by default): the server tells of new mail at once.
  const client = await imapClientFor(server, rule, { idle: true });
  let failure: unknown;
  let wake: () => void = () => undefined;
  client.on("error", (error: unknown) => {
    failure = error;
    wake();
  });
  client.on("close", () => {
    failure ??= new MailConnectionError("network", "the mail server closed the connection");
    wake();
  });
  client.on("exists", () => wake());
  // One listener for the whole watch (not one per wait): an abort ends the current wait.
  options.signal.addEventListener("abort", () => wake(), { once: true });
  try {
    await client.connect();
    const mailbox = await client.mailboxOpen(options.folder, { readOnly: true });
    let lastUid = options.afterUid ?? Math.max(0, Number(mailbox.uidNext ?? 1) - 1);
    options.ready?.();
    while (!options.signal.aborted && failure === undefined) {
      let timer: NodeJS.Timeout | undefined;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, LOOK_AGAIN_MS);
        timer.unref();
      }).finally(() => clearTimeout(timer));
      const uids = ((await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || []).filter((uid) => uid > lastUid).sort((a, b) => a - b);
      if (uids.length > 0) {
        const mail: ArrivedMail[] = [];
        for await (const message of client.fetch(uids, { uid: true, size: true, envelope: true }, { uid: true })) {
          const envelope = message.envelope;
          const from = envelope?.from?.[0];
          mail.push({
            uid: message.uid,
            from: from?.address ? { address: from.address.toLowerCase(), name: from.name ?? "" } : null,
            recipients: [...(envelope?.to ?? []), ...(envelope?.cc ?? [])].flatMap((entry) => (entry.address ? [entry.address.toLowerCase()] : [])),
            subject: (envelope?.subject ?? "").trim(),
            messageId: envelope?.messageId ?? null,
            size: message.size ?? 0,
          });
        }
        lastUid = uids.at(-1)!;
        await options.arrived(
          mail.sort((a, b) => a.uid - b.uid),
          lastUid,
        );
        continue;
      }
      await woken;
    }
    if (failure !== undefined && !options.signal.aborted) throw failure;
  } catch (error) {
    if (options.signal.aborted) return;
    throw classifyImapFailure(error);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
