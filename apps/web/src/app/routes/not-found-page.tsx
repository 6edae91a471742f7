import { TriangleAlertIcon } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { useDocumentTitle } from "@/lib/use-document-title";

export function NotFoundPage() {
  useDocumentTitle("Page not found");
  return (
    <div className="flex min-h-full w-full items-center justify-center p-4">
      <Card className="mx-4 w-full max-w-md" data-testid="not-found-card">
        <CardContent className="pt-2">
          <div className="mb-4 flex items-center gap-2">
            <TriangleAlertIcon className="size-8 text-destructive" aria-hidden />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
        </CardContent>
      </Card>
    </div>
  );
}
