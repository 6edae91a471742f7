/**
 * How long a screen waits before asking the server again while something runs. One place, so component tests can
 * shorten every wait (test/setup.ts) instead of sleeping through real seconds; the app always waits the real time.
 */
let scale = 1;

export const pollEvery = (ms: number) => ms * scale;

/** For tests: multiplies every poll's wait. */
export function scalePolls(factor: number) {
  scale = factor;
}
