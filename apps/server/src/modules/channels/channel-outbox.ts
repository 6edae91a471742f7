import { ChannelError, type ChannelAdapter, type ChatAddress, type OutgoingMessage } from "../../channels/channel-adapter.ts";
import type { ChannelsRepo, OutboxRow } from "./channels.repo.ts";

/** What the outbox keeps for one message: a new one, or an edit of a card sent earlier (its buttons closed). */
export type OutboxItem =
  { kind: "send"; chat: ChatAddress; message: OutgoingMessage } | { kind: "edit"; chat: ChatAddress; cardId: number; message: OutgoingMessage };

/** A wait the service asked for (429 retry_after) up to this long is waited out at once; a longer one is retried later. */
const WAIT_INLINE_MAX_MS = 60_000;
/** Pauses before each next try of a message that could not be sent (the round picks it up when due). */
const BACKOFF_MS = [2_000, 10_000, 30_000, 120_000, 600_000, 1_800_000];
/** A refused token is tried again this rarely (the user may have fixed it in the service). */
const REFUSED_RETRY_MS = 15 * 60_000;
/** How long a process holds a message it is sending before another may take it. */
const CLAIM_MS = 120_000;
/** Failed tries in a row before the channel's row says it cannot be reached. */
const FAILURES_BEFORE_SHOWN = 2;

export interface OutboxDeps {
  repo: ChannelsRepo;
  /** The channel's adapter, or null when the channel is gone or cannot be opened (its secret key changed). */
  adapterFor(channelId: number): Promise<ChannelAdapter | null>;
  /** The channel works again (null), or fails with this reason shown on its row (`refused`: its token was refused). */
  channelState(channelId: number, problem: { message: string; refused: boolean } | null): Promise<void>;
  now: () => Date;
  warn(message: string, error?: unknown): void;
  /** Waits (the tests' clock may skip it); resolves early when the signal aborts. */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Every message SAGE sends to a channel goes through here: kept in the database first, then sent in order, one channel
 * at a time. A 429 is waited out (`retry_after`), a service that cannot be reached is tried again with growing pauses
 * (and shown on the channel's row), and a message is never dropped: what the service refuses for good stays counted
 * as unsent, and every answer is in its conversation anyway (decision 077).
 */
export function createChannelOutbox(deps: OutboxDeps) {
  const { repo } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  const closing = new AbortController();
  /** Per channel, the drain running now (sends stay in order). */
  const draining = new Map<number, Promise<void>>();
  const again = new Set<number>();
  const failures = new Map<number, number>();

  async function deliver(adapter: ChannelAdapter, row: OutboxRow, item: OutboxItem): Promise<string> {
    if (item.kind === "send") return (await adapter.send(item.chat, item.message)).ref;
    const card = await repo.byOutboxId(item.cardId);
    // The card never went out (or failed for good): nothing to edit.
    if (!card?.sentRef) return "";
    await adapter.edit(item.chat, { ref: card.sentRef }, item.message);
    return card.sentRef;
  }

  /** Sends the channel's due messages in order; stops at the first that must wait, keeping the rest behind it. */
  async function drainNow(channelId: number) {
    const adapter = await deps.adapterFor(channelId);
    if (!adapter) return;
    for (const row of await repo.queued(channelId)) {
      if (closing.signal.aborted) return;
      if (row.nextAttemptMs > deps.now().getTime()) return;
      if (!(await repo.claimOutgoing(row.id, deps.now().getTime(), CLAIM_MS))) return;
      const item = JSON.parse(row.body) as OutboxItem;
      let attempts = row.attempts;
      for (;;) {
        attempts++;
        try {
          const ref = await deliver(adapter, row, item);
          await repo.sent(row.id, ref, deps.now().toISOString());
          if (failures.delete(channelId) || row.attempts > 0) await deps.channelState(channelId, null);
          break;
        } catch (error) {
          const failure = error instanceof ChannelError ? error : new ChannelError(String((error as Error)?.message ?? error));
          if (!(error instanceof ChannelError)) deps.warn("a channel message could not be sent", error);
          if (failure.retryAfterMs !== undefined && failure.retryAfterMs <= WAIT_INLINE_MAX_MS && attempts < 5) {
            await sleep(failure.retryAfterMs, closing.signal);
            if (closing.signal.aborted) {
              await repo.retryLater(row.id, attempts, 0, failure.message);
              return;
            }
            continue;
          }
          const refused = failure.permanent && (failure.options.status === 401 || failure.options.status === 404);
          if (failure.permanent && !refused) {
            // This message can never go (the service refused its content or the chat blocked the bot): the next ones may.
            await repo.failed(row.id, failure.message);
            break;
          }
          const waitMs = failure.retryAfterMs ?? (refused ? REFUSED_RETRY_MS : BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)]!);
          await repo.retryLater(row.id, attempts, deps.now().getTime() + waitMs, failure.message);
          const count = (failures.get(channelId) ?? 0) + 1;
          failures.set(channelId, count);
          if (refused || count >= FAILURES_BEFORE_SHOWN) await deps.channelState(channelId, { message: failure.message, refused });
          return;
        }
      }
    }
  }

  /** Drains a channel, once at a time; a drain asked for while one runs runs again after it. */
  function drain(channelId: number): Promise<void> {
    const running = draining.get(channelId);
    if (running) {
      again.add(channelId);
      return running;
    }
    const run = (async () => {
      do {
        again.delete(channelId);
        try {
          await drainNow(channelId);
        } catch (error) {
          deps.warn("a channel's messages could not be sent", error);
        }
      } while (again.has(channelId) && !closing.signal.aborted);
    })().finally(() => draining.delete(channelId));
    draining.set(channelId, run);
    return run;
  }

  return {
    /** Keeps the message and sends it (after any still waiting in that channel); answers its outbox id. */
    async send(channelId: number, item: OutboxItem, approvalId: string | null = null): Promise<number> {
      const id = await repo.queue(channelId, JSON.stringify(item), approvalId, deps.now().toISOString());
      await drain(channelId);
      return id;
    },
    /** The round: channels with messages due for another try. */
    async retryDue() {
      await Promise.all((await repo.channelsWithQueued(deps.now().getTime())).map((channelId) => drain(channelId)));
    },
    drain,
    /** Resolves when no channel is being sent to. */
    async idle() {
      while (draining.size > 0) await Promise.all([...draining.values()]);
    },
    async close() {
      closing.abort();
      await Promise.all([...draining.values()]);
    },
  };
}

export type ChannelOutbox = ReturnType<typeof createChannelOutbox>;
