/** Fixed-window counter per client key; small and in memory, which is enough for one process. */
export function createLoginRateLimiter(options: { limit: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { startedAt: number; count: number }>();

  return {
    /**
     * Counts one attempt. Over the limit for the current window, answers the whole seconds until the window ends
     * (what a 429's Retry-After says); otherwise 0.
     */
    tryAttempt(key: string): { allowed: boolean; retryAfterSeconds: number } {
      const current = now();
      const window = windows.get(key);
      if (!window || current - window.startedAt >= options.windowMs) {
        if (windows.size > 10_000) windows.clear();
        windows.set(key, { startedAt: current, count: 1 });
        return { allowed: true, retryAfterSeconds: 0 };
      }
      window.count += 1;
      if (window.count <= options.limit) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + options.windowMs - current) / 1000)) };
    },
  };
}
