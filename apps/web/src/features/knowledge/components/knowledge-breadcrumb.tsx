import { ChevronRightIcon } from "lucide-react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";

interface KnowledgeBreadcrumbProps {
  trail: KnowledgeItem[];
  onNavigate: (folderId: number) => void;
  label?: string;
}

/** 'Knowledge Base > Folder > Sub-folder'; every crumb but the last navigates. */
export function KnowledgeBreadcrumb({ trail, onNavigate, label = "Breadcrumb" }: KnowledgeBreadcrumbProps) {
  const crumbs = [{ id: 0, name: "Knowledge Base" }, ...trail.map((folder) => ({ id: folder.id, name: folder.name }))];
  return (
    <nav aria-label={label}>
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.id} className="flex items-center gap-1">
              {index > 0 ? <ChevronRightIcon className="size-3 text-muted-foreground" aria-hidden /> : null}
                {last ? (
                  <span aria-current="page" className="font-medium">
                    {crumb.name}
                  </span>
                ) : (
                  <button type="button" className="text-muted-foreground hover:text-foreground hover:underline" onClick={() => onNavigate(crumb.id)}>
                    {crumb.name}
                  </button>
                )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
