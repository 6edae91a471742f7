import { createRequire } from "node:module";
import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { runWorkerScript } from "./run-worker-script.ts";

// rtf.js renders to DOM elements and expects a global `document`: it gets linkedom's, inside a worker, so no
// browser globals leak into the server (other libraries take them as a sign they run in a browser).
const RTF_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { parseHTML } = require(workerData.linkedomPath);
  const { document, window } = parseHTML("<!doctype html><html><body></body></html>");
  globalThis.document = document;
  globalThis.window = window;
  const RTFJS = require(workerData.rtfjsPath);
  RTFJS.loggingEnabled(false);
  const elements = await new RTFJS.Document(workerData.bytes.buffer).render();
  parentPort.postMessage({ result: elements.map((element) => element.outerHTML).join("\\n") });
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

const require = createRequire(import.meta.url);

/** RTF through rtf.js (Unicode escapes and code pages handled), then the same HTML-to-markdown path as web pages. */
export async function convertRtf(bytes: Buffer): Promise<ExtractedDocument> {
  const data = new Uint8Array(bytes);
  const html = await runWorkerScript<string>(RTF_WORKER_SOURCE, {
    what: "The RTF document",
    workerData: { bytes: data, linkedomPath: require.resolve("linkedom"), rtfjsPath: require.resolve("rtf.js/dist/RTFJS.bundle.js") },
    transferList: [data.buffer],
  });
  return documentFromText(await htmlToMarkdown(html), "The document contains no text");
}
