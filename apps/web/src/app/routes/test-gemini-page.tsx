import { MarkdownMessage } from "@/features/chat/components/markdown-message";
import { TestGemini } from "@/features/retrieval/components/test-gemini";

export function TestGeminiPage() {
  return <TestGemini renderMarkdown={(text) => <MarkdownMessage content={text} />} />;
}
