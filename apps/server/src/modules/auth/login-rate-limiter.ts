/** Fixed-window counter per client key; small and in memory, which is enough for one process. */
export function createLoginRateLimiter(options: { limit: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { startedAt: number; count: number }>();

  return {
    /** Counts one attempt; false when the client is over the limit for the current window. */
    tryAttempt(key: string): boolean {
      const current = now();
      const window = windows.get(key);
      if (!window || current - window.startedAt >= options.windowMs) {
        if (windows.size > 10_000) windows.clear();
        windows.set(key, { startedAt: current, count: 1 });
        return true;
      }
      window.count += 1;
      return window.count <= options.limit;
    },
  };
}
