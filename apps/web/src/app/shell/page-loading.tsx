import { useLocation } from "wouter";

/**
 * What the page being opened says while it loads. Every stage (session check, page code, data) says the same
 * thing, so the conversation list never flashes a bare 'Loading...' before 'Loading conversations...'.
 */
export function loadingLabel(path: string): string {
  return path === "/" || path === "/conversations" || path === "/login" ? "Loading conversations..." : "Loading...";
}

export function PageLoading() {
  const [location] = useLocation();
  return (
    <p role="status" className="py-12 text-center text-muted-foreground">
      {loadingLabel(location)}
    </p>
  );
}
