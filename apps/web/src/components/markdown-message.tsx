import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { safeUrl } from "@/lib/safe-url";

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className="text-primary underline underline-offset-2">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // No remote images in chat: they would load third-party content; the alt text stands in.
  img: ({ alt }) => <span>{alt}</span>,
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border px-2 py-1 text-left font-semibold">{children}</th>,
  td: ({ children }) => <td className="border px-2 py-1">{children}</td>,
  ul: ({ children }) => <ul className="my-2 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-2 list-decimal pl-5">{children}</ol>,
  p: ({ children }) => <p className="my-1.5 first:mt-0 last:mb-0">{children}</p>,
  blockquote: ({ children }) => <blockquote className="my-2 border-l-2 pl-3 text-muted-foreground">{children}</blockquote>,
  code: ({ children }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">{children}</code>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-md bg-muted p-3 [&_code]:bg-transparent [&_code]:p-0">{children}</pre>,
};

/** A document's "# Title" as a bold line: a quoted passage must not take over the page's outline of headings. */
const quotedComponents: Components = {
  ...components,
  h1: ({ children }) => <p className="my-2 text-base font-semibold">{children}</p>,
  h2: ({ children }) => <p className="my-2 font-semibold">{children}</p>,
  h3: ({ children }) => <p className="my-1.5 font-semibold">{children}</p>,
  h4: ({ children }) => <p className="my-1.5 font-medium">{children}</p>,
  h5: ({ children }) => <p className="my-1.5 font-medium">{children}</p>,
  h6: ({ children }) => <p className="my-1.5 font-medium">{children}</p>,
};

/** Markdown with GFM tables; raw HTML is dropped and links keep only the allowed schemes. */
export function MarkdownMessage({
  content,
  quoted = false,
}: {
  content: string;
  /** Text quoted from a document (headings shown as bold lines). */ quoted?: boolean;
}) {
  return (
    <div className="break-words">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={safeUrl} components={quoted ? quotedComponents : components}>
        {content}
      </Markdown>
    </div>
  );
}
