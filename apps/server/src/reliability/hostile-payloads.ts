import { randomBytes } from "node:crypto";
import { formPart, postBytes } from "./raw-http.ts";

/**
 * The hostile requests of issue 17 as raw bytes, shared by the tests that send them once
 * (hostile-requests.test.ts) and the load soak that sends them while 50 clients work (load.test.ts).
 */
export const BOUNDARY = "sage-hostile-boundary";
export const FORM_ROUTES = [
  { url: "/api/upload", filename: "notes.txt" },
  { url: "/api/import_vector_db", filename: "vector_db_backup.zip" },
];

export const formClosing = Buffer.from(`--${BOUNDARY}--\r\n`);
const closing = formClosing;
export const fileHead = (filename: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
export const formPost = (url: string, cookie: string, body: Buffer, options: { contentType?: string; contentLength?: number } = {}) =>
  postBytes(url, { cookie, "content-type": options.contentType ?? `multipart/form-data; boundary=${BOUNDARY}` }, body, options.contentLength);

const CUT_SHORT = "The form data is malformed: it ended before its closing boundary (the upload was cut short)";

/** Malformed and oversized multipart forms, each with the answer it must get. */
export const HOSTILE_FORMS: Array<{ label: string; body: (filename: string) => Buffer; contentType?: string; status: number; error: string }> = [
  {
    label: "21 text fields before the file part",
    body: (filename) =>
      Buffer.concat([
        ...Array.from({ length: 21 }, (_, index) => formPart(BOUNDARY, `field${index}`, "value")),
        formPart(BOUNDARY, "file", "Some text.", filename),
        closing,
      ]),
    status: 413,
    error: "The form has more than 20 fields",
  },
  {
    label: "a file part with no closing boundary",
    body: (filename) => formPart(BOUNDARY, "file", randomBytes(40_000), filename),
    status: 400,
    error: CUT_SHORT,
  },
  {
    label: "a file part cut short",
    body: (filename) => Buffer.concat([fileHead(filename), randomBytes(30_000), Buffer.from(`\r\n--${BOUNDARY.slice(0, 6)}`)]),
    status: 400,
    error: CUT_SHORT,
  },
  {
    label: "multipart/form-data with no boundary",
    body: (filename) => Buffer.concat([formPart(BOUNDARY, "file", "Some text.", filename), closing]),
    contentType: "multipart/form-data",
    status: 400,
    error: "The form data is malformed: the Content-Type header has no boundary",
  },
  {
    label: "a text field longer than 64 KB",
    body: (filename) => Buffer.concat([formPart(BOUNDARY, "description", "d".repeat(70_000)), formPart(BOUNDARY, "file", "Some text.", filename), closing]),
    status: 413,
    error: "A form field is longer than 65536 bytes",
  },
];

const nested = (open: string, inner: string, close: string) => open.repeat(1000) + inner + close.repeat(1000);

/** JSON bodies nested 1,000 levels deep; the first is ~10 KB of tool parameters for /api/gemini/chat. */
export const DEEP_JSON_BODIES = {
  "tools of a chat turn": JSON.stringify({
    messages: [{ role: "user", content: "Hello" }],
    tools: [{ functionDeclarations: [{ name: "deep", parameters: "PARAMETERS" }] }],
  }).replace('"PARAMETERS"', nested('{"items":', "{}", "}")),
  arrays: nested("[", "1", "]"),
  objects: `{"name":${nested('{"a":', "1", "}")}}`,
} satisfies Record<string, string>;
export const DEEP_JSON_ERROR = "Request body is nested too deeply (more than 64 levels)";

export interface HostileRequest {
  label: string;
  bytes: Buffer;
  /** The answers it may get; none for a client that goes away before it could be answered. */
  statuses?: number[];
  disconnect?: boolean;
}

/**
 * One of each hostile request, for a client that sends them over and over beside real work (the load soak). A
 * document bomb, when given, is uploaded as a .docx: it is accepted (202) and must fail its own job.
 */
export function hostileRequestMix(cookie: string, docxBomb?: Buffer): HostileRequest[] {
  const requests: HostileRequest[] = [];
  if (docxBomb) {
    const body = Buffer.concat([formPart(BOUNDARY, "file", docxBomb, "board-minutes.docx"), formClosing]);
    requests.push({ label: "/api/upload: a .docx that expands to 300 MB", bytes: formPost("/api/upload", cookie, body), statuses: [202, 200] }); // 200: a duplicate of one still being read
  }
  for (const route of FORM_ROUTES) {
    for (const form of HOSTILE_FORMS) {
      requests.push({
        label: `${route.url}: ${form.label}`,
        bytes: formPost(route.url, cookie, form.body(route.filename), { contentType: form.contentType }),
        statuses: [form.status],
      });
    }
    const partial = Buffer.concat([fileHead(route.filename), randomBytes(200_000)]);
    requests.push({
      label: `${route.url}: a client gone half-way`,
      bytes: formPost(route.url, cookie, partial, { contentLength: partial.length + 1_000_000 }),
      disconnect: true,
    });
  }
  for (const url of ["/api/gemini/chat", "/api/folders", "/api/conversations", "/api/search"]) {
    for (const [shape, body] of Object.entries(DEEP_JSON_BODIES)) {
      requests.push({
        label: `${url}: JSON nested 1,000 deep (${shape})`,
        bytes: postBytes(url, { cookie, "content-type": "application/json" }, Buffer.from(body)),
        statuses: [400],
      });
    }
  }
  return requests;
}
