import { createDocumentReader, type DocumentReader, type DocumentReaderOptions } from "../documents/documents.ts";

const readers = new Map<string, DocumentReader>();

/**
 * The document reader for test apps: one per test worker and set of limits, so a warm reader process serves test
 * after test instead of each test app forking its own (0.4-1.2 s each, 52 forks in the route tests; decision 111).
 * A test that narrows a limit gets a reader of its own limits. An app never closes it: its processes exit with the
 * worker (their IPC channel closes) or after their idle time.
 */
export function sharedDocumentReader(options: DocumentReaderOptions): DocumentReader {
  const key = JSON.stringify(options);
  let reader = readers.get(key);
  if (!reader) {
    reader = createDocumentReader(options);
    readers.set(key, reader);
  }
  const { convert, convertMany } = reader;
  return { convert, convertMany, close: async () => undefined };
}
