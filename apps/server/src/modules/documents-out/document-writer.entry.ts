// A worker thread that reads one text as a document, writes it, and exits (decision 042): a long document takes
// seconds of CPU (the Markdown parse too), which must not stop the server answering everyone else.
import { parentPort, workerData } from "node:worker_threads";
import { documentModel, type WriteJob } from "./write-job.ts";
import { writeDocument } from "./write-document.ts";

const job = workerData as WriteJob;
parentPort!.postMessage(await writeDocument(job.format, documentModel(job)));
