/**
 * Preloaded into the server only by the load test (`node --expose-gc --import`): on SIGUSR2 the server collects its
 * garbage and writes what is left to stderr, so memory is compared after a full collection, not wherever V8's next
 * collection happens to fall in a 12-second run.
 */
process.on("SIGUSR2", () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  const mb = (bytes: number) => bytes / 1_048_576;
  process.stderr.write(
    `SAGE_MEMORY ${JSON.stringify({ heapUsedMb: mb(heapUsed), rssMb: mb(rss), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) })}\n`,
  );
});
