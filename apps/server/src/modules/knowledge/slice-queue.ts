/**
 * Slices handed from a producer (the conversion process's replies) to a consumer (the chunk store) as they come:
 * an async iterable that ends when the producer ends it and throws what the producer failed with.
 */
export class SliceQueue<T> implements AsyncIterable<T[]> {
  private readonly slices: T[][] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(slice: T[]): void {
    if (this.ended || slice.length === 0) return;
    this.slices.push(slice);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.ended = true;
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T[]> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      const slice = this.slices.shift();
      if (slice) {
        yield slice;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
