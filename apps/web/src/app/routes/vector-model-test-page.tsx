import { MarkdownMessage } from "@/components/markdown-message";
import { VectorModelTest } from "@/features/retrieval/components/vector-model-test";
import { useDocumentTitle } from "@/lib/use-document-title";

export function VectorModelTestPage() {
  useDocumentTitle("Vector-Augmented Model Test");
  return <VectorModelTest renderMarkdown={(text) => <MarkdownMessage content={text} />} />;
}
