import { PagePlaceholder } from "./page-placeholder";

export function TestGeminiPage() {
  return <PagePlaceholder title="Vector-Augmented Model Test" />;
}
