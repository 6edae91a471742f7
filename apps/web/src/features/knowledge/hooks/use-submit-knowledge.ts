import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { addNote, addUrlReference, processUrl, uploadFile, type Placement } from "../api/add-knowledge";
import { knowledgeKeys } from "../api/knowledge-keys";
import type { DescribedEntry } from "../pending-entry";
import { addedDescription, NOTE_SEARCH_WARNING, UNEXPECTED_UPLOAD_ERROR, uploadToast, urlReferenceToast } from "../knowledge-toasts";

/** Sends pending entries (each with its description) and toasts each outcome; true when every entry was saved. */
export function useSubmitKnowledge() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);

  async function submit(items: DescribedEntry[], placement: Placement): Promise<boolean> {
    let allSaved = true;
    setProgress(0);
    try {
      for (const [index, { entry, description }] of items.entries()) {
        if (entry.kind === "file") {
          const outcome = await uploadFile(entry.file, placement, description, (fraction) => setProgress((index + fraction) / items.length));
          toast(uploadToast(entry.file.name, outcome));
          if (!outcome.ok) allSaved = false;
        } else if (entry.kind === "folder") {
          const onFile = (done: number, fraction: number) => setProgress((index + (done + fraction) / entry.files.length) / items.length);
          allSaved = (await submitFolder(entry, placement, description, onFile)) && allSaved;
        } else if (entry.kind === "url") {
          allSaved = (await submitUrl(entry.url, placement, description)) && allSaved;
        } else {
          try {
            const result = await addNote(entry.text, placement, description);
            if (result.warning) toast({ title: "Note saved", description: NOTE_SEARCH_WARNING, variant: "warning" });
            else toast({ title: "Note added", description: `${result.item.name} was added to the knowledge base.` });
          } catch (error) {
            allSaved = false;
            toastError({ title: "Failed to add note", error, fallback: UNEXPECTED_UPLOAD_ERROR, fields: [], orElse: "fullMessage" });
          }
        }
        setProgress((index + 1) / items.length);
      }
    } catch {
      allSaved = false;
      toastError({ title: "Upload failed", description: UNEXPECTED_UPLOAD_ERROR });
    } finally {
      setProgress(null);
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.all });
    }
    return allSaved;
  }

  return { submit, progress };
}

/** Uploads a folder's files one by one, each with its relative path; one toast for the folder. */
async function submitFolder(
  folder: { name: string; files: Array<{ file: File; relativePath: string }> },
  placement: Placement,
  description: string,
  onProgress: (done: number, fraction: number) => void,
): Promise<boolean> {
  const failures: string[] = [];
  for (const [done, { file, relativePath }] of folder.files.entries()) {
    const outcome = await uploadFile(file, placement, description, (fraction) => onProgress(done, fraction), relativePath);
    if (!outcome.ok) failures.push(`${relativePath}: ${outcome.error || UNEXPECTED_UPLOAD_ERROR}`);
  }
  const added = folder.files.length - failures.length;
  if (failures.length === 0) {
    toast({ title: "Folder uploaded", description: `${folder.name}: ${added} ${added === 1 ? "file" : "files"} added.` });
    return true;
  }
  toastError({ title: "Upload failed", description: `${folder.name}: ${failures.length} of ${folder.files.length} files failed (${failures[0]}).` });
  return false;
}

async function submitUrl(url: string, placement: Placement, description: string): Promise<boolean> {
  let outcome;
  try {
    outcome = await processUrl(url, placement, description);
  } catch {
    outcome = { ok: false as const, status: 0, error: "API Connection Failed" };
  }
  if (outcome.ok) {
    if (!outcome.body.url_info?.file_id) {
      toast({ title: "URL processed but not saved", description: "The URL was processed but could not be saved to the knowledge base.", variant: "warning" });
      return false;
    }
    if (outcome.status === 202 || outcome.body.status === "processing_in_background") {
      toast({ title: "URL Processing Started", description: "The page is being processed in the background." });
    } else {
      toast({ title: "URL added", description: addedDescription(outcome.body.url_info.name, outcome.body.chunks_processed) });
    }
    return true;
  }
  if (outcome.status === 400) {
    toastError({ title: "URL Processing Failed", description: outcome.error });
    return false;
  }
  // The server keeps a failed link as a reference entry; otherwise register one here, so the link is not lost.
  if (outcome.fileId) {
    toast(urlReferenceToast(outcome.error));
    return true;
  }
  try {
    await addUrlReference(url, placement, description);
    toast(urlReferenceToast(outcome.error));
    return true;
  } catch {
    toastError({ title: "URL Processing Failed", description: "File registration failed. Please try again." });
    return false;
  }
}
