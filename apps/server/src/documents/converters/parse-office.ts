import { createRequire } from "node:module";
import { runWorkerScript } from "./run-worker-script.ts";

/** The part of officeparser's AST we read. */
export interface OfficeNode {
  type: string;
  text?: string;
  children?: OfficeNode[];
  notes?: OfficeNode[];
  metadata?: { slideNumber?: number; level?: number; listType?: "ordered" | "unordered"; indentation?: number; itemIndex?: number };
}

// officeparser runs in a worker (it unzips and parses XML synchronously); only the plain AST comes back. Slide
// masters, comments, headers and footers are template or margin text, not the document's content.
const OFFICE_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { OfficeParser } = require(workerData.officeparserPath);
  const ast = await OfficeParser.parseOffice(Buffer.from(workerData.bytes), {
    fileType: workerData.fileType, ignoreNotes: false, ignoreComments: true, ignoreHeadersAndFooters: true,
    ignoreSlideMasters: true, extractAttachments: false, includeRawContent: false, ocr: false,
    decompressionLimits: { maxUncompressedBytes: 256 * 1024 * 1024, maxZipEntries: 10000 },
  });
  parentPort.postMessage({ result: JSON.parse(JSON.stringify(ast.content)) });
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

const require = createRequire(import.meta.url);

export async function parseOffice(bytes: Buffer, fileType: "pptx" | "odp" | "odt", what: string): Promise<OfficeNode[]> {
  const data = new Uint8Array(bytes);
  return runWorkerScript<OfficeNode[]>(OFFICE_WORKER_SOURCE, {
    what,
    workerData: { bytes: data, fileType, officeparserPath: require.resolve("officeparser") },
    transferList: [data.buffer],
  });
}

/** Markdown blocks for nodes: headings as '#', list items as '-' / '1.', a table as its '| a | b |' rows. */
export function officeMarkdown(nodes: OfficeNode[]): string[] {
  const lines: string[] = [];
  for (const node of nodes) {
    const text = (node.text ?? "").replace(/\s+/g, " ").trim();
    if (node.type === "heading" && text) lines.push(`${"#".repeat(Math.min(6, Math.max(1, node.metadata?.level ?? 1)))} ${text}`);
    else if (node.type === "list" && text) {
      const marker = node.metadata?.listType === "ordered" ? `${(node.metadata.itemIndex ?? 0) + 1}.` : "-";
      lines.push(`${"  ".repeat(node.metadata?.indentation ?? 0)}${marker} ${text}`);
    } else if (node.type === "table") {
      const rows = tableRows(node);
      if (rows.length > 0) lines.push(rows.join("\n"));
    }
    else if (node.children?.length && node.type !== "paragraph") lines.push(...officeMarkdown(node.children));
    else if (text) lines.push(text);
  }
  return lines;
}

function tableRows(table: OfficeNode): string[] {
  return (table.children ?? [])
    .filter((row) => row.type === "row")
    .map((row) => (row.children ?? []).map((cell) => officeMarkdown(cell.children ?? []).join(" ").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim()))
    .filter((cells) => cells.some(Boolean))
    .map((cells) => `| ${cells.join(" | ")} |`);
}
