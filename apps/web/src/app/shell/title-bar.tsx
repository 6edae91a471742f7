import { XIcon } from "lucide-react";
import { closeWindow } from "./close-window";

/**
 * The custom title bar. Installed as a PWA with window-controls-overlay, it sits in the OS
 * title-bar area (env(titlebar-area-*)) and drags the window; its buttons do not.
 */
export function TitleBar() {
  return (
    <header className="title-bar app-region-drag shrink-0 border-b bg-title-bar text-title-bar-foreground select-none">
      <div className="title-bar-area flex items-center justify-between">
        <span className="px-3 text-sm font-semibold tracking-wide">SAGE</span>
        <button
          type="button"
          aria-label="Close window"
          title="Close window"
          onClick={closeWindow}
          className="app-region-no-drag inline-flex h-full items-center justify-center px-3 text-title-bar-foreground/70 transition-colors outline-none hover:bg-destructive hover:text-white focus-visible:bg-destructive focus-visible:text-white"
        >
          <XIcon className="size-4" aria-hidden />
        </button>
      </div>
    </header>
  );
}
