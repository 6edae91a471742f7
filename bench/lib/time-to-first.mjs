/**
 * Milliseconds from sending `init` to `url` until the body contains `marker`. The rest of the body is cancelled,
 * or with `readToEnd` read (untimed), so the server finishes its work as it would for a client that stays.
 */
export async function timeToFirst(url, init, marker, { readToEnd = false } = {}) {
  const startedAt = performance.now();
  const response = await fetch(url, init);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended without ${marker}: ${seen.slice(0, 300)}`);
    seen += decoder.decode(value, { stream: true });
    if (seen.includes(marker)) {
      const ms = performance.now() - startedAt;
      if (!readToEnd) await reader.cancel();
      else while (!(await reader.read()).done);
      return ms;
    }
  }
}

/** Milliseconds from sending `init` to `url` until its whole body has arrived. */
export async function timeToEnd(url, init) {
  const startedAt = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return performance.now() - startedAt;
}
