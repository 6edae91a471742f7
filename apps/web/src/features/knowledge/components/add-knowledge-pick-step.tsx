import { FileTextIcon, FolderIcon, LinkIcon, StickyNoteIcon, UploadIcon, XIcon } from "lucide-react";
import { useRef, useState, type Dispatch, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/cn";
import type { AddKnowledgeAction, AddKnowledgeState } from "../add-knowledge-reducer";
import { foldersFromPicked, readDrop, type PickedFolder } from "../folder-entries";
import { unsupportedFileToast } from "../knowledge-toasts";
import { ACCEPT_ATTRIBUTE, NO_ITEMS_MESSAGE, splitSupported } from "../knowledge-view";
import { pendingEntryLabel, type PendingEntry } from "../pending-entry";

const entryIcon = (entry: PendingEntry) =>
  entry.kind === "file" ? FileTextIcon : entry.kind === "folder" ? FolderIcon : entry.kind === "url" ? LinkIcon : StickyNoteIcon;
/** The folder picker is a file input with webkitdirectory, which React's types do not list. */
const folderPickerAttributes = { webkitdirectory: "", directory: "" } as Record<string, string>;

/** Files of a supported type as entries; the user hears once about any left out. */
function supportedFiles(list: FileList | File[] | null): PendingEntry[] {
  const { accepted, rejected } = splitSupported([...(list ?? [])]);
  if (rejected.length > 0) toast(unsupportedFileToast());
  return accepted.map((file) => ({ kind: "file", file }));
}

/** Whole folders: their supported files keep their place inside; hidden and system files are left out. */
function supportedFolders(folders: PickedFolder[]): PendingEntry[] {
  let anyRejected = false;
  const kept = folders.flatMap((folder): PendingEntry[] => {
    const { accepted, rejected } = splitSupported(folder.files.map((entry) => ({ ...entry, name: entry.file.name })));
    if (rejected.length > 0) anyRejected = true;
    return accepted.length > 0 ? [{ kind: "folder", name: folder.name, files: accepted.map(({ file, relativePath }) => ({ file, relativePath })) }] : [];
  });
  if (anyRejected) toast(unsupportedFileToast());
  return kept;
}

interface PickStepProps {
  state: AddKnowledgeState;
  dispatch: Dispatch<AddKnowledgeAction>;
  onCancel: () => void;
}

/** The first step: files and folders (picked or dropped), or a web link, or a note. */
export function AddKnowledgePickStep({ state, dispatch, onCancel }: PickStepProps) {
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const addUploads = (entries: PendingEntry[]) => dispatch({ type: "uploads-added", entries });

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    // The drop's entries are read at once (they are gone after the event); folders are walked afterwards.
    void readDrop(event.dataTransfer).then(
      ({ files, folders }) => {
        if (files.length > 0) addUploads(supportedFiles(files));
        if (folders.length > 0) addUploads(supportedFolders(folders));
      },
      () => toastError({ title: "Upload failed", description: "The dropped folder could not be read." }),
    );
  };

  const next = () => {
    if (state.items.length === 0) toastError({ title: "Nothing to add", description: NO_ITEMS_MESSAGE });
    else dispatch({ type: "describe-started" });
  };

  return (
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
            addUploads(
              supportedFolders(
                foldersFromPicked([...(event.target.files ?? [])].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }))),
              ),
            );
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
            addUploads(supportedFiles(event.target.files));
            event.target.value = "";
          }}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="add-knowledge-url">Add URL</Label>
        <div className="flex gap-2">
          <Input
            id="add-knowledge-url"
            type="url"
            placeholder="https://example.com/article"
            value={state.urlDraft}
            onChange={(event) => dispatch({ type: "url-typed", text: event.target.value })}
          />
          <Button type="button" variant="secondary" disabled={!state.urlDraft.trim()} onClick={() => dispatch({ type: "url-added" })}>
            <LinkIcon aria-hidden /> Add URL
          </Button>
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="add-knowledge-note">Add Note</Label>
        <Textarea
          id="add-knowledge-note"
          placeholder="Write a note..."
          rows={3}
          value={state.noteDraft}
          onChange={(event) => dispatch({ type: "note-typed", text: event.target.value })}
        />
        <Button
          type="button"
          variant="secondary"
          className="justify-self-end"
          disabled={!state.noteDraft.trim()}
          onClick={() => dispatch({ type: "note-added" })}
        >
          <StickyNoteIcon aria-hidden /> Add Note
        </Button>
      </div>
      {state.items.length > 0 ? (
        <ul aria-label="Pending items" className="grid gap-1 rounded-md border p-2 text-sm">
          {state.items.map(({ entry }, index) => {
            const Icon = entryIcon(entry);
            const label = pendingEntryLabel(entry);
            return (
              <li key={`${entry.kind}-${index}`} className="flex items-center gap-2">
                <Icon className="size-4" aria-hidden />
                <span className="min-w-0 flex-1 truncate">{label}</span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={`Remove ${label}`}
                  onClick={() => dispatch({ type: "entry-removed", index })}
                >
                  <XIcon aria-hidden />
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="button" onClick={next}>
          Next
        </Button>
      </DialogFooter>
    </>
  );
}
