import { PagePlaceholder } from "./page-placeholder";

export function WebSearchTestPage() {
  return <PagePlaceholder title="Web Search Test" />;
}
