import type { ReactNode } from "react";
import { Loader2 } from "lucide-react";
import { TEST_QUERY_FAILED_MESSAGE } from "@sage/contracts/retrieval";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/error-message";
import { useAskWithKnowledge } from "../api/ask-with-knowledge";
import { useTestQueryForm } from "../hooks/use-test-query-form";

/** /test-gemini (the path keeps its first name): a developer page where the model answers from the knowledge base. */
export function VectorModelTest({ renderMarkdown }: { renderMarkdown: (text: string) => ReactNode }) {
  const ask = useAskWithKnowledge();
  const { query, setQuery, blank, onSubmit } = useTestQueryForm(ask);

  const answer = ask.data?.response;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-6">
      <h1 className="text-2xl font-semibold">Vector-Augmented Model Test</h1>
      <form onSubmit={onSubmit} className="flex gap-2">
        <Input
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Ask about Warren Buffett's investment ideas..."
          aria-label="Question"
        />
        <Button type="submit" disabled={blank || ask.isPending}>
          {ask.isPending ? (
            <>
              <Loader2 className="animate-spin" aria-hidden /> Processing
            </>
          ) : (
            "Search"
          )}
        </Button>
      </form>
      {ask.isError ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-700 dark:border-red-800 dark:bg-red-950 dark:text-red-300">
          Error: {errorMessage(ask.error, { fallback: TEST_QUERY_FAILED_MESSAGE, fields: ["message", "error"] })}
        </div>
      ) : null}
      {ask.isSuccess ? (
        <div className="flex flex-col gap-2">
          <h2 className="font-semibold">Response:</h2>
          <div className="rounded-md border p-4" data-testid="test-gemini-response">
            {answer ? renderMarkdown(answer) : <p className="text-muted-foreground">No response received</p>}
          </div>
        </div>
      ) : null}
    </div>
  );
}
