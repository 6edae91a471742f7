import type { Store } from "../../../store/open-store.ts";
import { createVectorStore } from "./vector-store.ts";

/**
 * A tenth of production's sizes (vector-partition.ts, vector-store.ts): the vector tests take the same exact,
 * filtered-ANN, whole-ANN, background-build and catch-up paths with a tenth of the vectors.
 */
export const TEST_VECTOR_LIMITS = { hnswThreshold: 200, exactScopeLimit: 400, syncBuildLimit: 500, syncCatchUpLimit: 20 };

/** A vector store at the test sizes. */
export const createTestVectorStore = (sqlite: Store["sqlite"], options: Parameters<typeof createVectorStore>[1] = {}) =>
  createVectorStore(sqlite, { limits: TEST_VECTOR_LIMITS, ...options });
