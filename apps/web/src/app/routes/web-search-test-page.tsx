import { MarkdownMessage } from "@/features/chat/components/markdown-message";
import { WebSearchTest } from "@/features/retrieval/components/web-search-test";

export function WebSearchTestPage() {
  return <WebSearchTest renderMarkdown={(text) => <MarkdownMessage content={text} />} />;
}
