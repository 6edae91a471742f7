import { TriangleAlertIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";

interface PageErrorProps {
  error: unknown;
  /** Shows the page again (the error may have been passing). */
  onRetry: () => void;
}

const technicalDetail = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * What a page that failed shows instead of a blank window: what happened in plain words, that nothing saved is
 * lost, three ways on (try again, reload, go to the conversations), and the technical detail one click away.
 */
export function PageError({ error, onRetry }: PageErrorProps) {
  const [, navigate] = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on the message, not on whatever had focus in the page that failed.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div className="flex min-h-full w-full items-center justify-center p-4">
      <Card className="mx-4 w-full max-w-md" role="alert" data-testid="page-error">
        <CardContent className="grid gap-4 pt-2">
          <div className="flex items-center gap-2">
            <TriangleAlertIcon className="size-8 shrink-0 text-destructive" aria-hidden />
            <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-bold outline-none">
              Something went wrong
            </h1>
          </div>
          <p className="text-sm">SAGE could not show this page. Nothing you saved is lost: your conversations, knowledge and reminders are safe.</p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" onClick={onRetry}>
              Try again
            </Button>
            <Button type="button" variant="outline" onClick={() => window.location.reload()}>
              Reload page
            </Button>
            <Button type="button" variant="outline" onClick={() => navigate("/conversations")}>
              Go to conversations
            </Button>
          </div>
          <details className="text-xs text-muted-foreground">
            <summary className="cursor-pointer">Technical details</summary>
            <pre className="mt-2 max-h-40 overflow-auto rounded-md bg-muted p-2 whitespace-pre-wrap break-words">{technicalDetail(error)}</pre>
          </details>
        </CardContent>
      </Card>
    </div>
  );
}
