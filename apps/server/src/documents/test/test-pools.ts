import { createConversionPool, type ConversionPool, type ConversionPoolOptions } from "../conversion-pool.ts";

const MB = 1_048_576;

/**
 * Conversion pools for tests: one reader process with generous limits unless a test narrows one. `close()` ends
 * every pool made; call it in `afterAll`.
 */
export function testPools() {
  const made: ConversionPool[] = [];
  return {
    pool(options: Partial<ConversionPoolOptions> = {}) {
      const created = createConversionPool({
        size: 1,
        memoryMb: 512,
        timeoutMs: 60_000,
        maxExpandedBytes: 256 * MB,
        maxTextBytes: 64 * MB,
        idleMs: 60_000,
        ...options,
      });
      made.push(created);
      return created;
    },
    close: () => Promise.all(made.splice(0).map((pool) => pool.close())),
  };
}
