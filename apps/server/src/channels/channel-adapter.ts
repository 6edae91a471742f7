import type { ChannelKind } from "@sage/contracts/channels";

/**
 * One messaging service (Telegram, Slack, e-mail; Teams and WhatsApp later, decision 079) behind one small interface.
 * An adapter only carries messages: it turns what arrives into `ChannelInbound` and SAGE's replies into the service's
 * own messages. Who the user is, what a message may do and what needs Approve are decided by the channels module,
 * never here (ARCHITECTURE.md: no channel has its own tools, approval path or idea of who the user is).
 */
export interface ChannelAdapter {
  readonly kind: ChannelKind;
  /** The longest message the service takes, in the units `render` counts (Telegram 4096, Slack 3000 per section). */
  readonly limit: number;
  /**
   * Checks the credentials; answers the bot's own name (@SageBot, "SAGE in Acme", the address) and what identifies it
   * across users (a bot's id), so one bot serves one user; `cursor`, where receiving starts when the service keeps what
   * came before the first listen (e-mail: the INBOX's last UID at connecting).
   */
  identify(signal?: AbortSignal): Promise<{ name: string; identity: string; cursor?: string }>;
  /** A message or button press kept raw (`ChannelInbound.raw`) read back, after a restart. */
  parse(raw: unknown): ChannelInbound | null;
  /**
   * A request the service posted to SAGE (Slack's Events API): checked (its signature), answered, and what it carried.
   * Only adapters of services that post have it.
   */
  handleRequest?(request: { body: string; headers: Record<string, string | string[] | undefined> }): {
    status: number;
    body: unknown;
    inbound: ChannelInbound[];
  };
  /** Whether a stranger may get the one polite refusal (not by e-mail: that would be backscatter). Default true. */
  readonly repliesToStrangers?: boolean;
  /** The sender's name and the chat's title, where a message carries only ids (Slack). */
  whoIs?(sender: ChannelSender): Promise<{ userName: string; chatTitle: string }>;
  /**
   * Receives until the signal aborts (long polling, a socket, IMAP IDLE), handing each message and button press to
   * `receive` in the order they came; `cursor` is where the last run stopped, and each hand-off may move it.
   * Resolves when stopped; rejects with a `ChannelError` when it cannot go on (the caller retries later).
   */
  listen(options: {
    cursor: string | null;
    signal: AbortSignal;
    /** Called once connected (the first poll answered, the socket opened): the service can be reached again. */
    ready?(): void;
    receive(batch: ChannelInbound[], cursor: string | null): Promise<void>;
  }): Promise<void>;
  /** Sends one message (already cut to `limit`); answers its reference for a later edit. */
  send(chat: ChatAddress, message: OutgoingMessage): Promise<SentMessage>;
  /** Rewrites a message sent earlier (an approval card's buttons closed, with the answer). */
  edit(chat: ChatAddress, sent: SentMessage, message: OutgoingMessage): Promise<void>;
  /** Answers a button press (Telegram shows the text briefly); a no-op where the service has none. */
  acknowledge?(action: ChannelAction, text?: string): Promise<void>;
  /** Shows that SAGE is writing (Telegram's "typing..."), where the service has it. */
  typing?(chat: ChatAddress): Promise<void>;
  /**
   * Formats SAGE's Markdown for the service and cuts it into messages of at most `limit`, at sentence ends; `cite`
   * gives the address a citation's number [n] links to.
   */
  render(markdown: string, cite?: (n: number) => string | undefined): string[];
  close?(): Promise<void>;
}

/** Where a message goes: a chat (Telegram chat id, Slack channel id, an e-mail address) and a thread in it. */
export interface ChatAddress {
  chatId: string;
  /** Slack's thread_ts, e-mail's Message-ID replied to. */
  thread?: string;
  /** E-mail's subject line of the thread. */
  subject?: string;
}

export interface OutgoingMessage {
  /** Already in the service's format (from `render`), within `limit`. */
  text: string;
  /** Buttons under the message (an approval card's Approve / Decline); `data` comes back in a `ChannelAction`. */
  buttons?: { text: string; data: string; style?: "primary" | "danger" }[];
  /** A link button (e-mail approvals open the web app). */
  link?: { text: string; url: string };
}

/** A sent message's reference in its service (Telegram message id, Slack ts, e-mail Message-ID). */
export interface SentMessage {
  ref: string;
}

/** Who wrote, where: the ids compared with the pairing; names only for the user's eyes. */
export interface ChannelSender {
  chatId: string;
  chatTitle: string;
  group: boolean;
  userId: string;
  userName: string;
}

/** A file that came with a message; its bytes are fetched only for a paired chat. */
export interface ChannelFile {
  name: string;
  mimeType: string;
  size: number | null;
  kind: "photo" | "document";
  download(maxBytes: number): Promise<Buffer>;
}

export interface ChannelMessage extends ChannelSender {
  type: "message";
  /** The service's own form of the message (JSON), kept until it is answered and read back by `parse`. */
  raw: unknown;
  /** The service's id of the message (for threads and to skip a message delivered twice). */
  id: string;
  /** What the user wrote themselves. */
  text: string;
  /** Text the user passed on, not wrote: a forwarded message, a quoted mail. Untrusted (decision 031). */
  passedOn: { label: string; text: string }[];
  files: ChannelFile[];
  /** Where an answer goes (a Slack thread, an e-mail's subject and Message-ID). */
  replyTo: ChatAddress;
  /**
   * false when nothing vouches for the sender (e-mail: a From: can be forged): the message counts as content, not as the
   * user's words, and only a pairing code is read from `text` (decision 078).
   */
  vouched?: boolean;
}

/** A button pressed under a message SAGE sent. */
export interface ChannelAction extends ChannelSender {
  type: "action";
  raw: unknown;
  id: string;
  data: string;
  /** The message the button was under. */
  message: SentMessage;
}

export type ChannelInbound = ChannelMessage | ChannelAction;

/**
 * Why talking to the service failed: `retryAfterMs` when it asked to wait (HTTP 429 `retry_after`), `permanent` when
 * trying again cannot help (a revoked token, a chat that blocked the bot). `message` is in plain words for the user.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly options: { permanent?: boolean; retryAfterMs?: number; status?: number } = {},
  ) {
    super(message);
    this.name = "ChannelError";
  }
  get permanent() {
    return this.options.permanent ?? false;
  }
  get retryAfterMs() {
    return this.options.retryAfterMs;
  }
}
