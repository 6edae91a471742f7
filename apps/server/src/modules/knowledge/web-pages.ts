import type { DocumentReader } from "../../documents/documents.ts";
import type { SafeFetchResult } from "../../http/safe-fetch.ts";

/** A web page read for research: where it ended up after redirects, its title when it has one, and its text. */
export interface ReadPage {
  url: string;
  title: string;
  text: string;
}

/** Web pages read on demand (research, decision 046): fetched by the safe fetcher, read in a conversion process. */
export interface WebPagesPort {
  /** Reads at most `maxChars` of the page's text; rejects when it cannot be fetched or read, or when `signal` aborts. */
  read(url: string, options: { signal: AbortSignal; maxChars: number }): Promise<ReadPage>;
}

/**
 * The page is fetched through the same guard as a saved link (private addresses refused unless configured) and its
 * HTML is parsed where every untrusted document is: in a conversion process, never in the server.
 */
export function createWebPages(deps: { fetchUrl(url: string): Promise<SafeFetchResult>; documents: Pick<DocumentReader, "convert"> }): WebPagesPort {
  return {
    async read(url, { signal, maxChars }) {
      const page = await untilAborted(deps.fetchUrl(url), signal);
      const read = await deps.documents.convert({ kind: "page", url: page.url, contentType: page.contentType, body: page.body }, undefined, signal);
      const sections = read.chunks.map((chunk) => chunk.content.trim()).filter(Boolean);
      const heading = /^# (.+)$/m.exec(sections[0] ?? "")?.[1]?.trim();
      const text = sections.join("\n\n").slice(0, maxChars);
      return { url: page.url, title: heading || new URL(page.url).hostname, text };
    },
  };
}

/** The fetcher has its own time limit; a Stop need not wait for it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
