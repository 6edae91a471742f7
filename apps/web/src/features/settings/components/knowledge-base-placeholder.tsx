/** Settings > Knowledge Base: filled by the knowledge-base issue. */
export function KnowledgeBasePlaceholder() {
  return (
    <section aria-labelledby="knowledge-base-heading" className="grid gap-2">
      <h2 id="knowledge-base-heading" className="text-xl font-semibold">
        Knowledge Base
      </h2>
      <p className="text-sm text-muted-foreground">The system knowledge base manager will appear here.</p>
    </section>
  );
}
