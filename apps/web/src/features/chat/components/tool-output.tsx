import type { ReadResourceResponse, ToolOutput } from "@sage/contracts/external-tools";
import { LinkIcon } from "lucide-react";
import { useState } from "react";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { toastError } from "@/components/ui/toast-error";
import { readToolResource } from "../api/tool-offers";

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === "object" && value !== null && !Array.isArray(value);
const cell = (value: unknown) => (value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value));
/** "humidityPercent" -> "Humidity percent": a field's name in words. */
const label = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
};

/** A list of records as a table, its columns the union of their fields. */
function RecordTable({ rows, caption }: { rows: Row[]; caption: string }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs" data-testid="structured-table">
        <caption className="text-left font-medium">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="border-b px-2 py-1">
                {label(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column} className="border-b px-2 py-1 align-top break-words">
                  {cell(row[column])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A tool's structured data (checked against its schema on the server): a list of records as a table, other fields
 * as name and value.
 */
export function StructuredData({ data }: { data: Row }) {
  const fields = Object.entries(data).filter(([, value]) => !(Array.isArray(value) && value.length > 0 && value.every(isRow)));
  const tables = Object.entries(data).filter(([, value]) => Array.isArray(value) && value.length > 0 && value.every(isRow)) as [string, Row[]][];
  return (
    <div className="grid gap-2" data-testid="structured-data">
      {fields.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs" data-testid="structured-fields">
          {fields.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-medium">{label(name)}</dt>
              <dd className="break-words">{cell(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {tables.map(([name, rows]) => (
        <RecordTable key={name} caption={label(name)} rows={rows} />
      ))}
    </div>
  );
}

/** A resource of a tool server, read and shown (a link a tool gave, a resource before it is attached). */
export function ResourceViewer({ title, content, onClose }: { title: string; content: ReadResourceResponse | null; onClose: () => void }) {
  return (
    <Dialog open={content !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[80vh] overflow-y-auto sm:max-w-2xl">
        <DialogTitle>{title}</DialogTitle>
        {content?.contents.map((part, index) => (
          <div key={index} className="grid gap-1">
            {part.text !== undefined ? (
              <pre tabIndex={0} className="max-h-[60vh] overflow-auto rounded-md bg-muted/60 p-2 text-xs whitespace-pre-wrap break-words">
                {part.text}
              </pre>
            ) : (
              <p className="text-sm text-muted-foreground">
                Not text ({part.mimeType ?? "binary"}, {part.size ?? 0} bytes): SAGE cannot show it.
              </p>
            )}
          </div>
        ))}
      </DialogContent>
    </Dialog>
  );
}

/** What an external tool gave besides its text: its structured data, and links that open the server's resources. */
export function ToolOutputView({ output }: { output: ToolOutput }) {
  const [shown, setShown] = useState<{ title: string; content: ReadResourceResponse } | null>(null);
  async function open(link: NonNullable<ToolOutput["links"]>[number]) {
    try {
      setShown({ title: link.title ?? link.name, content: await readToolResource({ serverId: output.serverId, uri: link.uri }) });
    } catch (error) {
      toastError({ error, fallback: "The resource could not be read" });
    }
  }
  return (
    <div className="grid gap-2">
      {output.structured && <StructuredData data={output.structured} />}
      {output.links && output.links.length > 0 && (
        <ul aria-label="Resources" className="flex flex-wrap gap-1.5">
          {output.links.map((link) => (
            <li key={link.uri}>
              <button
                type="button"
                title={link.description ?? link.uri}
                onClick={() => void open(link)}
                className="inline-flex items-center gap-1 rounded-full border bg-background px-2.5 py-0.5 text-xs hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <LinkIcon className="size-3" aria-hidden /> {link.title ?? link.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ResourceViewer title={shown?.title ?? ""} content={shown?.content ?? null} onClose={() => setShown(null)} />
    </div>
  );
}
