import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { safeUrl } from "../safe-url";

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
  code: ({ children }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">{children}</code>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-md bg-muted p-3 [&_code]:bg-transparent [&_code]:p-0">{children}</pre>,
};

/** Markdown with GFM tables; raw HTML is dropped and links keep only the allowed schemes. */
export function MarkdownMessage({ content }: { content: string }) {
  return (
    <div className="break-words">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={safeUrl} components={components}>
        {content}
      </Markdown>
    </div>
  );
}
