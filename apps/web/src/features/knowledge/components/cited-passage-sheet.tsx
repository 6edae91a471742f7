import type { Citation } from "@sage/contracts/conversations";
import { useEffect } from "react";
import { toastError } from "@/components/ui/toast-error";
import { useItem } from "../api/get-item";
import { ItemPreviewSheet } from "./item-preview-sheet";

export const CITED_FILE_GONE = "The cited file is no longer in your knowledge base.";

/** A citation chip's target: the cited file's preview with the passage shown. */
export function CitedPassageSheet({ citation, onClose }: { citation: Citation | null; onClose: () => void }) {
  const item = useItem(citation?.fileId);
  const gone = citation !== null && (item.isError || (item.isSuccess && item.data === null));
  useEffect(() => {
    if (!gone) return;
    toastError({ description: CITED_FILE_GONE });
    onClose();
  }, [gone, onClose]);
  const shown = citation && item.data?.id === citation.fileId ? item.data : null;
  return <ItemPreviewSheet item={shown} onClose={onClose} passage={citation ?? undefined} />;
}
