import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { toastError } from "@/components/ui/toast-error";
import { ACTION_CLASS } from "./message-action-class";

/** How long "Copied" shows after a copy. */
const COPIED_MS = 2000;

/** Copies the message's Markdown text, then says "Copied" for a moment. */
export function CopyMessageButton({ content }: { content: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(content);
      setCopied(true);
    } catch {
      toastError({ title: "Could not copy", description: "Your browser did not let SAGE use the clipboard." });
    }
  }

  return (
    <>
      <button type="button" className={ACTION_CLASS} aria-label="Copy message" title="Copy message" onClick={() => void copy()}>
        {copied ? <CheckIcon aria-hidden className="size-3.5" /> : <CopyIcon aria-hidden className="size-3.5" />}
      </button>
      <span role="status" className="text-xs text-muted-foreground">
        {copied ? "Copied" : ""}
      </span>
    </>
  );
}
