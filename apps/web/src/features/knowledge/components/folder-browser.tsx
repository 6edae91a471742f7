import { ChevronRightIcon, FolderIcon } from "lucide-react";
import { useEffect } from "react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { toastError } from "@/components/ui/toast-error";
import { useFolders } from "../api/get-folders";
import { folderTrail, subfolders } from "../knowledge-view";
import { KnowledgeBreadcrumb } from "./knowledge-breadcrumb";

export const FOLDER_LOAD_ERROR = "Failed to load folder structure. Please try again later.";

interface FolderBrowserProps {
  folderId: number;
  onNavigate: (folderId: number, trail: KnowledgeItem[]) => void;
  /** A folder that cannot be entered (the one being moved). */
  excludeId?: number;
}

/** Folder drill-down with a breadcrumb, used to pick where new knowledge goes and where an item moves. */
export function FolderBrowser({ folderId, onNavigate, excludeId }: FolderBrowserProps) {
  const folders = useFolders();
  useEffect(() => {
    if (folders.isError) toastError({ description: FOLDER_LOAD_ERROR });
  }, [folders.isError]);
  const tree = folders.data ?? [];
  const children = subfolders(tree, folderId).filter((folder) => folder.id !== excludeId);
  const go = (id: number) => onNavigate(id, folderTrail(tree, id));

  return (
    <div className="grid gap-2">
      <KnowledgeBreadcrumb trail={folderTrail(tree, folderId)} onNavigate={go} label="Destination folder" />
      <ul className="max-h-60 overflow-y-auto rounded-md border" aria-label="Folders">
        {folders.isPending ? <li className="p-3 text-sm text-muted-foreground">Loading folders...</li> : null}
        {!folders.isPending && children.length === 0 ? <li className="p-3 text-sm text-muted-foreground">No subfolders</li> : null}
        {children.map((folder) => (
          <li key={folder.id}>
            <button type="button" className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-accent" onClick={() => go(folder.id)}>
              <FolderIcon className="size-4 text-amber-500" aria-hidden />
              <span className="flex-1 truncate">{folder.name}</span>
              <ChevronRightIcon className="size-4 text-muted-foreground" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
