import type { OfficeNode, OfficeThreadData } from "./office-reader.entry.ts";
import { runInThread } from "./run-in-thread.ts";

/** officeparser's AST of a document, parsed in a thread of its own (office-reader.entry.ts). */
export async function parseOffice(bytes: Buffer, fileType: OfficeThreadData["fileType"], what: string): Promise<OfficeNode[]> {
  const data = new Uint8Array(bytes);
  return runInThread<OfficeThreadData, OfficeNode[]>(new URL("./office-reader.entry.ts", import.meta.url), {
    what,
    workerData: { bytes: data, fileType },
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
    } else if (node.children?.length && node.type !== "paragraph") lines.push(...officeMarkdown(node.children));
    else if (text) lines.push(text);
  }
  return lines;
}

function tableRows(table: OfficeNode): string[] {
  return (table.children ?? [])
    .filter((row) => row.type === "row")
    .map((row) =>
      (row.children ?? []).map((cell) =>
        officeMarkdown(cell.children ?? [])
          .join(" ")
          .replace(/\s+/g, " ")
          .replace(/\|/g, "\\|")
          .trim(),
      ),
    )
    .filter((cells) => cells.some(Boolean))
    .map((cells) => `| ${cells.join(" | ")} |`);
}
