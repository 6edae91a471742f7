// Runs in a worker thread (convert-rtf.ts starts it): rtf.js renders to DOM elements and expects a global
// `document`. It gets linkedom's here, so no browser globals leak into the conversion process (other libraries
// take them as a sign they run in a browser).
import { parseHTML } from "linkedom";
import { createRequire } from "node:module";
import { replyToParent } from "./reply-to-parent.ts";

export interface RtfThreadData {
  bytes: Uint8Array;
}

replyToParent(async ({ bytes }: RtfThreadData): Promise<string> => {
  const { document, window } = parseHTML("<!doctype html><html><body></body></html>");
  Object.assign(globalThis, { document, window });
  // Loaded once the globals exist; the package's own entry is not runnable by Node, its bundle is.
  const RTFJS = createRequire(import.meta.url)("rtf.js/dist/RTFJS.bundle.js") as typeof import("rtf.js").RTFJS;
  RTFJS.loggingEnabled(false);
  const elements = await new RTFJS.Document(bytes.buffer as ArrayBuffer, {}).render();
  return elements.map((element) => element.outerHTML).join("\n");
});
