import { FileTextIcon, FolderIcon, LinkIcon, StickyNoteIcon, UploadIcon, XIcon } from "lucide-react";
import { useRef, useState, type DragEvent } from "react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/cn";
import { foldersFromPicked, readDrop, type PickedFolder } from "../folder-entries";
import { useSubmitKnowledge, type PendingEntry } from "../hooks/use-submit-knowledge";
import { ACCEPT_ATTRIBUTE, NO_ITEMS_MESSAGE, NOTE_PREVIEW_LENGTH, preview, splitSupported } from "../knowledge-view";
import { unsupportedFileToast } from "../knowledge-toasts";
import { FolderBrowser } from "./folder-browser";

interface AddKnowledgeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 0 for the system knowledge base. */
  conversationId: number;
  /** The folder the destination picker starts in. */
  initialFolder?: { id: number; trail: KnowledgeItem[] };
}

type Step = "pick" | "describe" | "destination";

const entryLabel = (entry: PendingEntry) => {
  if (entry.kind === "file") return entry.file.name;
  if (entry.kind === "folder") return `${entry.name} (${entry.files.length} ${entry.files.length === 1 ? "file" : "files"})`;
  return entry.kind === "url" ? entry.url : preview(entry.text, 50);
};
const entryIcon = (entry: PendingEntry) =>
  entry.kind === "file" ? FileTextIcon : entry.kind === "folder" ? FolderIcon : entry.kind === "url" ? LinkIcon : StickyNoteIcon;
const isUpload = (entry: PendingEntry) => entry.kind === "file" || entry.kind === "folder";
/** The folder picker is a file input with webkitdirectory, which React's types do not list. */
const folderPickerAttributes = { webkitdirectory: "", directory: "" } as Record<string, string>;

/** Adding knowledge: pick (files, a URL or a note) -> a description for each -> destination -> submit. */
export function AddKnowledgeDialog({ open, onOpenChange, conversationId, initialFolder }: AddKnowledgeDialogProps) {
  const [step, setStep] = useState<Step>("pick");
  const [entries, setEntries] = useState<PendingEntry[]>([]);
  const [urlDraft, setUrlDraft] = useState("");
  const [noteDraft, setNoteDraft] = useState("");
  const [descriptions, setDescriptions] = useState<string[]>([]);
  const [describeIndex, setDescribeIndex] = useState(0);
  const [folder, setFolder] = useState<{ id: number; trail: KnowledgeItem[] }>(initialFolder ?? { id: 0, trail: [] });
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const { submit, progress } = useSubmitKnowledge();
  const submitting = progress !== null;

  const reset = () => {
    setStep("pick");
    setEntries([]);
    setUrlDraft("");
    setNoteDraft("");
    setDescriptions([]);
    setDescribeIndex(0);
    setFolder(initialFolder ?? { id: 0, trail: [] });
  };

  const hasUnsaved = entries.length > 0 || urlDraft.trim() !== "" || noteDraft.trim() !== "";
  const requestClose = () => {
    if (submitting) return;
    if (hasUnsaved) return setConfirmDiscard(true);
    reset();
    onOpenChange(false);
  };

  const addFiles = (list: FileList | File[] | null) => {
    const { accepted, rejected } = splitSupported([...(list ?? [])]);
    if (rejected.length > 0) toast(unsupportedFileToast());
    if (accepted.length === 0) return;
    // Files accumulate; a pending URL or note is replaced by them.
    setEntries((current) => [...current.filter(isUpload), ...accepted.map((file) => ({ kind: "file" as const, file }))]);
  };

  /** Whole folders: their supported files keep their place inside; hidden and system files are left out. */
  const addFolders = (folders: PickedFolder[]) => {
    let anyRejected = false;
    const kept = folders.flatMap((folder) => {
      const { accepted, rejected } = splitSupported(folder.files.map((entry) => ({ ...entry, name: entry.file.name })));
      if (rejected.length > 0) anyRejected = true;
      return accepted.length > 0 ? [{ kind: "folder" as const, name: folder.name, files: accepted.map(({ file, relativePath }) => ({ file, relativePath })) }] : [];
    });
    if (anyRejected) toast(unsupportedFileToast());
    if (kept.length === 0) return;
    setEntries((current) => [...current.filter(isUpload), ...kept]);
  };

  const addUrl = () => {
    const url = urlDraft.trim();
    if (!url) return;
    setEntries([{ kind: "url", url }]);
    setUrlDraft("");
    setNoteDraft("");
  };

  const addNoteEntry = () => {
    const text = noteDraft.trim();
    if (!text) return;
    setEntries([{ kind: "note", text }]);
    setNoteDraft("");
    setUrlDraft("");
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    // The drop's entries are read at once (they are gone after the event); folders are walked afterwards.
    void readDrop(event.dataTransfer).then(
      ({ files, folders }) => {
        if (files.length > 0) addFiles(files);
        if (folders.length > 0) addFolders(folders);
      },
      () => toast({ title: "Upload failed", description: "The dropped folder could not be read.", variant: "destructive" }),
    );
  };

  const goToDescriptions = () => {
    if (entries.length === 0) {
      toast({ title: "Nothing to add", description: NO_ITEMS_MESSAGE, variant: "destructive" });
      return;
    }
    setDescriptions((current) => entries.map((_, index) => current[index] ?? ""));
    setDescribeIndex(0);
    setStep("describe");
  };

  const currentDescription = descriptions[describeIndex] ?? "";
  const nextDescription = () => {
    if (!currentDescription.trim()) return;
    if (describeIndex < entries.length - 1) setDescribeIndex(describeIndex + 1);
    else setStep("destination");
  };

  const onSubmit = async () => {
    const saved = await submit(entries, descriptions, {
      conversationId,
      parentId: folder.id,
      parentPath: folder.trail.map((crumb) => crumb.name).join("/"),
    });
    if (saved) {
      reset();
      onOpenChange(false);
    }
  };

  const current = entries[describeIndex];

  return (
    <>
      <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
        <DialogContent className="sm:max-w-lg">
          {step === "pick" ? (
            <>
              <DialogHeader>
                <DialogTitle>Add Knowledge</DialogTitle>
                <DialogDescription>Add files (documents, slides, spreadsheets, mail, calendars or images), a web link or a note.</DialogDescription>
              </DialogHeader>
              <div
                role="region"
                aria-label="Drop zone"
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                className={cn("flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm", dragging && "border-primary bg-accent")}
              >
                <UploadIcon className="size-6 text-muted-foreground" aria-hidden />
                <p>Drag and drop files, folders or a .zip here, or</p>
                <div className="flex gap-2">
                  <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()}>
                    Browse files
                  </Button>
                  <Button type="button" variant="outline" size="sm" onClick={() => folderInput.current?.click()}>
                    Browse folder
                  </Button>
                </div>
                <input
                  ref={folderInput}
                  type="file"
                  multiple
                  {...folderPickerAttributes}
                  aria-label="Choose a folder"
                  className="hidden"
                  onChange={(event) => {
                    addFolders(foldersFromPicked([...(event.target.files ?? [])].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }))));
                    event.target.value = "";
                  }}
                />
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  accept={ACCEPT_ATTRIBUTE}
                  aria-label="Choose files"
                  className="hidden"
                  onChange={(event) => {
                    addFiles(event.target.files);
                    event.target.value = "";
                  }}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="add-knowledge-url">Add URL</Label>
                <div className="flex gap-2">
                  <Input id="add-knowledge-url" type="url" placeholder="https://example.com/article" value={urlDraft} onChange={(event) => setUrlDraft(event.target.value)} />
                  <Button type="button" variant="secondary" disabled={!urlDraft.trim()} onClick={addUrl}>
                    <LinkIcon aria-hidden /> Add URL
                  </Button>
                </div>
              </div>
              <div className="grid gap-2">
                <Label htmlFor="add-knowledge-note">Add Note</Label>
                <Textarea id="add-knowledge-note" placeholder="Write a note..." rows={3} value={noteDraft} onChange={(event) => setNoteDraft(event.target.value)} />
                <Button type="button" variant="secondary" className="justify-self-end" disabled={!noteDraft.trim()} onClick={addNoteEntry}>
                  <StickyNoteIcon aria-hidden /> Add Note
                </Button>
              </div>
              {entries.length > 0 ? (
                <ul aria-label="Pending items" className="grid gap-1 rounded-md border p-2 text-sm">
                  {entries.map((entry, index) => {
                    const Icon = entryIcon(entry);
                    return (
                    <li key={`${entry.kind}-${index}`} className="flex items-center gap-2">
                      <Icon className="size-4" aria-hidden />
                      <span className="min-w-0 flex-1 truncate">{entryLabel(entry)}</span>
                      <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Remove ${entryLabel(entry)}`} onClick={() => setEntries((list) => list.filter((_, position) => position !== index))}>
                        <XIcon aria-hidden />
                      </Button>
                    </li>
                    );
                  })}
                </ul>
              ) : null}
              <DialogFooter>
                <Button type="button" variant="outline" onClick={requestClose}>
                  Cancel
                </Button>
                <Button type="button" onClick={goToDescriptions}>
                  Next
                </Button>
              </DialogFooter>
            </>
          ) : null}

          {step === "describe" && current ? (
            <>
              <DialogHeader>
                <DialogTitle>Add a description</DialogTitle>
                <DialogDescription>
                  {entries.length > 1 ? `Item ${describeIndex + 1} of ${entries.length}: ` : ""}
                  {current.kind === "note" ? "Note" : entryLabel(current)}
                </DialogDescription>
              </DialogHeader>
              {current.kind === "note" ? (
                <p className="max-h-40 overflow-y-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap" aria-label="Note preview">
                  {preview(current.text, NOTE_PREVIEW_LENGTH)}
                </p>
              ) : null}
              <div className="grid gap-2">
                <Label htmlFor="add-knowledge-description">Description</Label>
                <Textarea
                  id="add-knowledge-description"
                  required
                  rows={3}
                  placeholder="What is this about?"
                  value={currentDescription}
                  onChange={(event) => setDescriptions((list) => list.map((value, index) => (index === describeIndex ? event.target.value : value)))}
                />
                {!currentDescription.trim() ? <p className="text-xs text-muted-foreground">A description is required.</p> : null}
              </div>
              <p className="text-sm text-muted-foreground">
                Location: {["Knowledge Base", ...folder.trail.map((crumb) => crumb.name)].join(" / ")}
              </p>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => (describeIndex > 0 ? setDescribeIndex(describeIndex - 1) : setStep("pick"))}>
                  Back
                </Button>
                <Button type="button" disabled={!currentDescription.trim()} onClick={nextDescription}>
                  Next
                </Button>
              </DialogFooter>
            </>
          ) : null}

          {step === "destination" ? (
            <>
              <DialogHeader>
                <DialogTitle>Choose a destination</DialogTitle>
                <DialogDescription>Open a folder to add the items there, or add them here.</DialogDescription>
              </DialogHeader>
              <FolderBrowser folderId={folder.id} onNavigate={(id, trail) => setFolder({ id, trail })} />
              {submitting ? (
                <div className="grid gap-1" aria-live="polite">
                  <div className="h-2 overflow-hidden rounded bg-muted">
                    <div className="h-full bg-primary transition-all" style={{ width: `${Math.round((progress ?? 0) * 100)}%` }} />
                  </div>
                  <p className="text-xs text-muted-foreground">Uploading... {Math.round((progress ?? 0) * 100)}%</p>
                </div>
              ) : null}
              <DialogFooter>
                <Button type="button" variant="outline" disabled={submitting} onClick={() => setStep("describe")}>
                  Back
                </Button>
                <Button type="button" disabled={submitting} onClick={() => void onSubmit()}>
                  {submitting ? "Uploading..." : "Add here"}
                </Button>
              </DialogFooter>
            </>
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={confirmDiscard} onOpenChange={setConfirmDiscard}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Discard changes?</DialogTitle>
            <DialogDescription>You have items that were not added yet. Close and discard them?</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirmDiscard(false)}>
              Keep editing
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                setConfirmDiscard(false);
                reset();
                onOpenChange(false);
              }}
            >
              Discard
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
