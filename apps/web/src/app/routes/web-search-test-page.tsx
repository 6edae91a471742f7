import { MarkdownMessage } from "@/components/markdown-message";
import { WebSearchTest } from "@/features/retrieval/components/web-search-test";
import { useDocumentTitle } from "@/lib/use-document-title";

export function WebSearchTestPage() {
  useDocumentTitle("Web Search Test");
  return <WebSearchTest renderMarkdown={(text) => <MarkdownMessage content={text} />} />;
}
