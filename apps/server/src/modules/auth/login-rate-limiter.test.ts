import { describe, expect, it } from "vitest";
import { createLoginRateLimiter } from "./login-rate-limiter.ts";

describe("login rate limiter", () => {
  it("says how many seconds are left of the window once a client is over the limit", () => {
    let clock = 1_000_000;
    const limiter = createLoginRateLimiter({ limit: 2, windowMs: 60_000, now: () => clock });
    expect(limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    clock += 10_000;
    expect(limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    clock += 5_500;
    expect(limiter.tryAttempt("a")).toEqual({ allowed: false, retryAfterSeconds: 45 });
    clock += 44_000;
    expect(limiter.tryAttempt("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.tryAttempt("b")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    clock += 500;
    expect(limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });
});
