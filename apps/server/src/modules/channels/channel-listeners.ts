import { ChannelError, type ChannelAdapter, type ChannelInbound } from "../../channels/channel-adapter.ts";
import type { ChannelsRepo } from "./channels.repo.ts";

/** How long a process's claim on listening to a channel holds unless renewed (each round renews it). */
export const LISTENER_LEASE_MS = 60_000;
/** Pauses before listening again after a failure (a service down, a dropped connection). */
const RETRY_MS = [1_000, 5_000, 15_000, 30_000, 60_000];
/** A refused token is tried again this rarely. */
const REFUSED_RETRY_MS = 15 * 60_000;
/** Failures in a row before the channel's row says it cannot be reached. */
const FAILURES_BEFORE_SHOWN = 2;

export interface ListenerDeps {
  repo: ChannelsRepo;
  /** This process's name on the channels it listens to. */
  owner: string;
  adapterFor(channelId: number): Promise<ChannelAdapter | null>;
  /** What arrived; `cursor` is where receiving resumes once it is handled. */
  receive(channelId: number, batch: ChannelInbound[], cursor: string | null): Promise<void>;
  channelState(channelId: number, problem: { message: string; refused: boolean } | null): Promise<void>;
  now: () => Date;
  warn(message: string, error?: unknown): void;
}

/**
 * Keeps one listener per channel (Telegram's long polling, Slack's socket, IMAP IDLE), in one process at a time: each
 * round claims or renews a lease on the channel's row, so on a shared database another process takes a channel over
 * only when its listener's process stopped renewing (the lifecycle mail sync and the job queue's leases follow, decision
 * 077). A listener that fails is started again with growing pauses; one whose token was refused waits 15 minutes.
 */
export function createChannelListeners(deps: ListenerDeps) {
  const running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  const refusedAt = new Map<number, number>();
  let closed = false;

  function sleep(ms: number, signal: AbortSignal) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async function listen(channelId: number, signal: AbortSignal) {
    let failures = 0;
    while (!signal.aborted) {
      const adapter = await deps.adapterFor(channelId).catch(() => null);
      const row = await deps.repo.byId(channelId);
      if (!adapter || !row) return;
      try {
        await adapter.listen({
          cursor: row.cursor,
          signal,
          ready: () => {
            if (failures > 0 || row.error)
              void deps.channelState(channelId, null).catch((error: unknown) => deps.warn("could not clear a channel's error", error));
            failures = 0;
          },
          receive: (batch, cursor) => deps.receive(channelId, batch, cursor),
        });
        return;
      } catch (error) {
        if (signal.aborted) return;
        const failure = error instanceof ChannelError ? error : new ChannelError(String((error as Error)?.message ?? error));
        if (!(error instanceof ChannelError)) deps.warn(`channel ${channelId} stopped listening`, error);
        const refused = failure.permanent && (failure.options.status === 401 || failure.options.status === 404);
        failures++;
        if (refused || failures >= FAILURES_BEFORE_SHOWN) await deps.channelState(channelId, { message: failure.message, refused }).catch(() => undefined);
        if (refused) {
          refusedAt.set(channelId, deps.now().getTime());
          return;
        }
        await sleep(failure.retryAfterMs ?? RETRY_MS[Math.min(failures - 1, RETRY_MS.length - 1)]!, signal);
      }
    }
  }

  function start(channelId: number) {
    const controller = new AbortController();
    const done = listen(channelId, controller.signal)
      .catch((error: unknown) => deps.warn(`channel ${channelId}'s listener failed`, error))
      .finally(async () => {
        running.delete(channelId);
        await deps.repo.releaseListener(channelId, deps.owner).catch(() => undefined);
      });
    running.set(channelId, { controller, done });
  }

  async function stop(channelId: number) {
    const listener = running.get(channelId);
    if (!listener) return;
    listener.controller.abort();
    await listener.done;
  }

  return {
    /** Starts the listeners this process may take, renews the ones it runs, and stops those of deleted channels. */
    async round() {
      if (closed) return;
      const rows = await deps.repo.all();
      const present = new Set(rows.map((row) => row.id));
      for (const id of running.keys()) if (!present.has(id)) await stop(id);
      const nowMs = deps.now().getTime();
      for (const row of rows) {
        const refused = refusedAt.get(row.id);
        if (refused !== undefined && nowMs - refused < REFUSED_RETRY_MS && !running.has(row.id)) continue;
        const claimed = await deps.repo.claimListener(row.id, deps.owner, nowMs, LISTENER_LEASE_MS);
        if (!claimed) {
          // Another process took it over (this one stalled past its lease): it listens now.
          if (running.has(row.id)) await stop(row.id);
          continue;
        }
        if (!running.has(row.id) && !closed) {
          refusedAt.delete(row.id);
          start(row.id);
        }
      }
    },
    /** Listens again from scratch (new credentials, a new pairing). */
    async restart(channelId: number) {
      await stop(channelId);
      refusedAt.delete(channelId);
    },
    stop,
    listening: (channelId: number) => running.has(channelId),
    async close() {
      closed = true;
      await Promise.all([...running.keys()].map((id) => stop(id)));
    },
  };
}

export type ChannelListeners = ReturnType<typeof createChannelListeners>;
