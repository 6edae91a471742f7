import { MarkdownMessage } from "@/features/chat/components/markdown-message";
import { VectorModelTest } from "@/features/retrieval/components/vector-model-test";

export function VectorModelTestPage() {
  return <VectorModelTest renderMarkdown={(text) => <MarkdownMessage content={text} />} />;
}
