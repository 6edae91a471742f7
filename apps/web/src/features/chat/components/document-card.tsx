import { DOCUMENT_TEXTS, documentCreatedSchema, type DocumentCreated } from "@sage/contracts/documents-out";
import type { ToolCallRecord } from "@sage/contracts/conversations";
import { DRAFT_TEXTS } from "@sage/contracts/documents-out";
import { DownloadIcon, FileSpreadsheetIcon, FileTextIcon, PencilIcon, PresentationIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DraftCanvas } from "./draft-canvas";

/** The file a createDocument or reviseDocument call made, read from its saved result (there after a reload too). */
export function createdDocument(call: Pick<ToolCallRecord, "name" | "result">): DocumentCreated | undefined {
  if (call.name !== "createDocument" && call.name !== "reviseDocument") return undefined;
  const result = call.result as { success?: unknown } | null;
  if (!result || result.success !== true) return undefined;
  const parsed = documentCreatedSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

const ICONS = { docx: FileTextIcon, pdf: FileTextIcon, pptx: PresentationIcon, xlsx: FileSpreadsheetIcon };

/** A file SAGE made: its name, its kind in words, Download, and its draft to edit (the canvas). */
export function DocumentCard({ document }: { document: DocumentCreated }) {
  const Icon = ICONS[document.format];
  const [editing, setEditing] = useState(false);
  const { draftId } = document;
  return (
    <li data-testid="document-card" className="flex max-w-[85%] flex-wrap items-center gap-3 self-start rounded-xl border bg-card px-3 py-2 shadow-xs">
      <Icon className="size-8 shrink-0 text-primary" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={document.name}>
          {document.name}
        </p>
        <p className="text-xs text-muted-foreground">{DOCUMENT_TEXTS.formatNames[document.format]}</p>
      </div>
      {draftId !== undefined ? (
        <>
          <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label={`${DRAFT_TEXTS.open} ${document.name}`}>
            <PencilIcon aria-hidden /> {DRAFT_TEXTS.open}
          </Button>
          <DraftCanvas draftId={draftId} open={editing} onOpenChange={setEditing} />
        </>
      ) : null}
      <Button asChild size="sm" variant="outline">
        <a href={`/api/files/${document.fileId}/download`} download={document.name} aria-label={`${DOCUMENT_TEXTS.download} ${document.name}`}>
          <DownloadIcon aria-hidden /> {DOCUMENT_TEXTS.download}
        </a>
      </Button>
    </li>
  );
}
