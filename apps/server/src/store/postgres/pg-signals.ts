import pg from "pg";

/** Messages between the SAGE processes on one database: what one process did that another is waiting for. */
export interface Signals {
  publish(channel: string, payload: string): Promise<void>;
  /**
   * Calls `listener` with each payload published on the channel by any process (this one too), from when it resolves;
   * resolves with an unsubscribe.
   */
  subscribe(channel: string, listener: (payload: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

/**
 * PostgreSQL's LISTEN/NOTIFY on one connection of its own (a pooled one would drop its LISTENs when returned). A
 * notification is delivered to every listening session once its transaction commits, within milliseconds.
 * Channels are plain identifiers. A lost connection is said through `onLost`; its listeners then hear nothing.
 */
export async function openPgSignals(
  url: string,
  options: { onLost?: (error: Error) => void; onListenerError?: (error: Error) => void } = {},
): Promise<Signals> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", (error) => options.onLost?.(error));
  await client.connect();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  // Any role may NOTIFY on a channel: a payload a listener cannot read is reported, never thrown into pg's handler.
  client.on("notification", (message) => {
    for (const listener of listeners.get(message.channel) ?? []) {
      try {
        listener(message.payload ?? "");
      } catch (error) {
        options.onListenerError?.(error as Error);
      }
    }
  });
  const identifier = (channel: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
    return channel;
  };
  return {
    async publish(channel, payload) {
      await client.query("SELECT pg_notify($1, $2)", [identifier(channel), payload]);
    },
    async subscribe(channel, listener) {
      let set = listeners.get(identifier(channel));
      if (!set) {
        listeners.set(channel, (set = new Set()));
        await client.query(`LISTEN ${channel}`);
      }
      set.add(listener);
      return () => void set.delete(listener);
    },
    async close() {
      await client.end();
    },
  };
}
