import { DRAFT_TEXTS, DOCUMENT_TEXTS } from "@sage/contracts/documents-out";
import { DownloadIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { MarkdownMessage } from "@/components/markdown-message";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/error-message";
import { useDocumentDraft, useDraftActions } from "../api/document-drafts";

/**
 * The canvas (decision 047): a document's Markdown beside the chat, to edit, preview and export again. The text
 * the user typed stays in the editor whatever fails; a save that would overwrite SAGE's newer revision is refused.
 */
export function DraftCanvas({ draftId, open, onOpenChange }: { draftId: number; open: boolean; onOpenChange: (open: boolean) => void }) {
  const draft = useDocumentDraft(draftId, open);
  const { save, exportDraft } = useDraftActions(draftId);
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const contentId = useId();
  const loaded = draft.data;

  // The editor starts from the draft as read; later reads (after a save or export) match what is typed.
  useEffect(() => {
    if (!loaded) return;
    setTitle(loaded.title);
    setContent(loaded.content);
  }, [loaded?.id, loaded?.version]); // eslint-disable-line react-hooks/exhaustive-deps

  const dirty = !!loaded && (title !== loaded.title || content !== loaded.content);
  const busy = save.isPending || exportDraft.isPending;
  const state = dirty ? DRAFT_TEXTS.unsaved : loaded?.exported ? DRAFT_TEXTS.exported : DRAFT_TEXTS.saved;

  async function saveEdits() {
    if (!loaded) return false;
    setProblem(null);
    try {
      await save.mutateAsync({ title, content, version: loaded.version });
      return true;
    } catch (error) {
      setProblem(errorMessage(error, { fallback: "The draft could not be saved. Your text is still here; try again.", otherErrors: "fallback" }));
      return false;
    }
  }

  async function exportFile() {
    if (dirty && !(await saveEdits())) return;
    setProblem(null);
    try {
      await exportDraft.mutateAsync();
    } catch (error) {
      setProblem(errorMessage(error, { fallback: "The file could not be written. Your text is saved; try Export again.", otherErrors: "fallback" }));
    }
  }

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent className="w-full gap-2 overflow-y-auto sm:max-w-[720px]" data-testid="draft-canvas">
        <SheetHeader className="pr-10">
          <SheetTitle>{`${DRAFT_TEXTS.panelTitle}: ${loaded?.title ?? ""}`}</SheetTitle>
          <SheetDescription>
            {loaded ? `${DOCUMENT_TEXTS.formatNames[loaded.format]} · ` : ""}
            <span role="status">{loaded ? state : draft.isError ? DRAFT_TEXTS.notFound : "Loading…"}</span>
          </SheetDescription>
        </SheetHeader>
        {loaded ? (
          <div className="grid min-w-0 grid-cols-1 gap-3 px-4 pb-4">
            <div className="grid gap-1">
              <Label htmlFor={titleId}>{DRAFT_TEXTS.titleLabel}</Label>
              <Input id={titleId} value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
            </div>
            <Tabs defaultValue="edit">
              <TabsList>
                <TabsTrigger value="edit">{DRAFT_TEXTS.edit}</TabsTrigger>
                <TabsTrigger value="preview">{DRAFT_TEXTS.preview}</TabsTrigger>
              </TabsList>
              <TabsContent value="edit" className="grid gap-1">
                <Label htmlFor={contentId}>{DRAFT_TEXTS.contentLabel}</Label>
                <Textarea
                  id={contentId}
                  value={content}
                  onChange={(event) => setContent(event.target.value)}
                  className="min-h-[45vh] font-mono text-sm"
                  spellCheck
                />
              </TabsContent>
              <TabsContent value="preview" className="min-h-[45vh] rounded-md border p-3" data-testid="draft-preview">
                <MarkdownMessage content={content} />
              </TabsContent>
            </Tabs>
            {problem ? (
              <p role="alert" className="text-sm text-destructive">
                {problem}
              </p>
            ) : null}
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <Button variant="outline" onClick={() => void saveEdits()} disabled={!dirty || busy || !title.trim() || !content.trim()}>
                {DRAFT_TEXTS.save}
              </Button>
              <Button onClick={() => void exportFile()} disabled={busy || !title.trim() || !content.trim()}>
                {DRAFT_TEXTS.export}
              </Button>
              {loaded.fileId !== null && loaded.fileName ? (
                <Button asChild variant="ghost" className="max-w-full min-w-0">
                  <a
                    href={`/api/files/${loaded.fileId}/download`}
                    download={loaded.fileName}
                    aria-label={`${DOCUMENT_TEXTS.download} ${loaded.fileName}`}
                    title={loaded.fileName}
                  >
                    <DownloadIcon aria-hidden /> <span className="truncate">{loaded.fileName}</span>
                  </a>
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
