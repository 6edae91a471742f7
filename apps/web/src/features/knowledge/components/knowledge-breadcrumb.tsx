import { ChevronRightIcon } from "lucide-react";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { cn } from "@/lib/cn";

interface KnowledgeBreadcrumbProps {
  trail: KnowledgeItem[];
  onNavigate: (folderId: number) => void;
  label?: string;
  /** Renders the current folder as the section's heading (level 2), so the title is not repeated above the trail. */
  asHeading?: boolean;
}

/** 'Knowledge Base > Folder > Sub-folder'; every crumb but the last navigates. */
export function KnowledgeBreadcrumb({ trail, onNavigate, label = "Breadcrumb", asHeading = false }: KnowledgeBreadcrumbProps) {
  const crumbs = [{ id: 0, name: "Knowledge Base" }, ...trail.map((folder) => ({ id: folder.id, name: folder.name }))];
  return (
    <nav aria-label={label} className="min-w-0">
      <ol className={cn("flex flex-wrap items-center gap-1", asHeading ? "text-xl" : "text-sm")}>
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const Current = asHeading ? "h2" : "span";
          return (
            <li key={crumb.id} className="flex min-w-0 items-center gap-1">
              {index > 0 ? <ChevronRightIcon className={cn("shrink-0 text-muted-foreground", asHeading ? "size-4" : "size-3")} aria-hidden /> : null}
              {last ? (
                <Current aria-current="page" className={cn("truncate", asHeading ? "font-semibold" : "font-medium")} title={crumb.name}>
                  {crumb.name}
                </Current>
              ) : (
                <button
                  type="button"
                  className="truncate text-muted-foreground hover:text-foreground hover:underline"
                  title={crumb.name}
                  onClick={() => onNavigate(crumb.id)}
                >
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
