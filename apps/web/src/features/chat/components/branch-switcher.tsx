import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { ACTION_CLASS } from "./message-action-class";

/** `< 2/3 >`: steps through the versions of a message (decision 045). */
export function BranchSwitcher({ id, siblings, onShow, disabled }: { id: number; siblings: number[]; onShow: (id: number) => void; disabled?: boolean }) {
  const index = siblings.indexOf(id);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  return (
    <div role="group" aria-label={`Version ${index + 1} of ${siblings.length}`} data-testid="branch-switcher" className="inline-flex items-center gap-0.5">
      <button
        type="button"
        className={ACTION_CLASS}
        aria-label="Previous version"
        disabled={disabled || previous === undefined}
        onClick={() => previous !== undefined && onShow(previous)}
      >
        <ChevronLeftIcon aria-hidden className="size-3.5" />
      </button>
      <span className="min-w-8 text-center text-xs tabular-nums text-muted-foreground" aria-hidden>
        {index + 1}/{siblings.length}
      </span>
      <button
        type="button"
        className={ACTION_CLASS}
        aria-label="Next version"
        disabled={disabled || next === undefined}
        onClick={() => next !== undefined && onShow(next)}
      >
        <ChevronRightIcon aria-hidden className="size-3.5" />
      </button>
    </div>
  );
}
