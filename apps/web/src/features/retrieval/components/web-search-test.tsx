import type { ReactNode } from "react";
import { TEST_QUERY_FAILED_MESSAGE } from "@sage/contracts/retrieval";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/error-message";
import { useTestQueryForm } from "../hooks/use-test-query-form";
import { useWebSearch } from "../api/web-search";

/** /web-search-test: a developer page for a web search through the model, with its sources. */
export function WebSearchTest({ renderMarkdown }: { renderMarkdown: (text: string) => ReactNode }) {
  const search = useWebSearch();
  const { query, setQuery, blank, onSubmit } = useTestQueryForm(search);

  const response = search.data?.response;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-6">
      <h1 className="text-2xl font-semibold">Web Search Test</h1>
      <form onSubmit={onSubmit} className="flex gap-2">
        <Input value={query} onChange={(event) => setQuery(event.target.value)} placeholder="Search the web..." aria-label="Web search query" />
        <Button type="submit" disabled={blank || search.isPending}>
          {search.isPending ? "Searching..." : "Search"}
        </Button>
      </form>
      {search.isError ? (
        <Card className="border-red-300 dark:border-red-800" role="alert">
          <CardHeader>
            <CardTitle className="text-red-700 dark:text-red-300">Error</CardTitle>
          </CardHeader>
          <CardContent className="text-sm">
            Error: {errorMessage(search.error, { fallback: TEST_QUERY_FAILED_MESSAGE, fields: ["message", "error"] })}
          </CardContent>
        </Card>
      ) : null}
      {search.isSuccess ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle>Response</CardTitle>
            </CardHeader>
            <CardContent data-testid="web-search-response">
              {response ? renderMarkdown(response) : <p className="text-muted-foreground">No response received</p>}
            </CardContent>
          </Card>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Sources
            <Textarea readOnly rows={6} value={search.data.groundingData?.trim() ? search.data.groundingData : "No source information available"} />
          </label>
        </>
      ) : null}
    </div>
  );
}
