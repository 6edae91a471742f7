import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

/**
 * Technical detail one click away (decision 038): a closed native disclosure, keyboard-usable, whose summary says
 * "Details" unless told otherwise.
 */
export function DetailsDisclosure({ children, summary = "Details", className }: { children: ReactNode; summary?: string; className?: string }) {
  return (
    <details className={cn("text-xs text-muted-foreground", className)}>
      <summary className="w-fit cursor-pointer rounded-sm select-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        {summary}
      </summary>
      <div className="mt-1 break-words">{children}</div>
    </details>
  );
}
