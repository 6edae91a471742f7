import { useEffect, useRef } from "react";
import { cn } from "@/lib/cn";
import { MailHeaders, splitMailHeaders } from "./mail-headers";

interface DocumentTextProps {
  sections: { source: string; text: string }[];
  filename: string;
  /** The section a cited passage came from: scrolled into view and marked. */
  focusSource?: string;
}

/** "page 3" -> "Page 3"; a section without a source of its own is the file's text. */
const sectionLabel = (source: string, filename: string) => (source && source !== filename ? source.charAt(0).toUpperCase() + source.slice(1) : "Text");

/** A document's text as it was read, one labelled block per page, slide, sheet or heading. */
export function DocumentText({ sections, filename, focusSource }: DocumentTextProps) {
  const focused = useRef<HTMLElement>(null);
  useEffect(() => {
    focused.current?.scrollIntoView?.({ block: "start" });
  }, [focusSource, sections]);
  const isMail = filename.toLowerCase().endsWith(".eml");
  return (
    <div className="mt-1 max-h-96 overflow-y-auto rounded-md border" data-testid="preview-document-text">
      {sections.map((section, index) => {
        const isFocused = focusSource !== undefined && section.source === focusSource;
        // A mail's first section starts with its headers: shown as a message's head, its text below.
        const mail = isMail && index === 0 ? splitMailHeaders(section.text) : null;
        return (
          <section
            key={`${index}-${section.source}`}
            ref={isFocused ? focused : undefined}
            aria-label={sectionLabel(section.source, filename)}
            className={cn("border-b p-3 last:border-b-0", isFocused && "bg-primary/5")}
          >
            <h3 className="mb-1 text-xs font-semibold text-muted-foreground uppercase">{sectionLabel(section.source, filename)}</h3>
            {mail && <MailHeaders headers={mail.headers} />}
            <p className="text-sm whitespace-pre-wrap break-words">{mail ? mail.body : section.text}</p>
          </section>
        );
      })}
    </div>
  );
}
