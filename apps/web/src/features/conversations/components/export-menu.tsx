import { DOCUMENT_TEXTS, EXPORT_FORMATS } from "@sage/contracts/documents-out";
import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

/** Export: the whole conversation as Markdown, Word or PDF, its citations as footnotes (a plain download). */
export function ExportMenu({ conversationId }: { conversationId: number }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label="Export this conversation" className="max-sm:size-9 max-sm:p-0">
          <DownloadIcon aria-hidden /> <span className="max-sm:sr-only">{DOCUMENT_TEXTS.export}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {EXPORT_FORMATS.map((format) => (
          <DropdownMenuItem key={format} asChild>
            <a href={`/api/conversations/${conversationId}/export?format=${format}`} download>
              {DOCUMENT_TEXTS.formatNames[format]} (.{format})
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
