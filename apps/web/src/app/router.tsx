import { lazy, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import { useAuthSession } from "@/features/auth/hooks/use-auth-session";
import { LoginPage } from "./routes/login-page";
import { NotFoundPage } from "./routes/not-found-page";
import { PageLoading } from "./shell/page-loading";
import { RouteErrorBoundary } from "./shell/route-error-boundary";

// Pages behind the login load on demand, so the login page's JavaScript stays small.
const ConversationsPage = lazy(() => import("./routes/conversations-page").then((module) => ({ default: module.ConversationsPage })));
const ConversationDetailPage = lazy(() => import("./routes/conversation-detail-page").then((module) => ({ default: module.ConversationDetailPage })));
const SettingsPage = lazy(() => import("./routes/settings-page").then((module) => ({ default: module.SettingsPage })));
const VectorModelTestPage = lazy(() => import("./routes/vector-model-test-page").then((module) => ({ default: module.VectorModelTestPage })));
const WebSearchTestPage = lazy(() => import("./routes/web-search-test-page").then((module) => ({ default: module.WebSearchTestPage })));

/**
 * The app's routes. Logged out, every path but /login goes to /login. A page that fails to render (or whose code
 * does not load) shows a plain message with ways on, inside the window's frame.
 */
export function AppRouter() {
  return (
    <RouteErrorBoundary>
      <Routes />
    </RouteErrorBoundary>
  );
}

function Routes() {
  const { isLoggedIn } = useAuthSession();

  if (!isLoggedIn) {
    return (
      <Switch>
        <Route path="/login" component={LoginPage} />
        <Route>
          <Redirect to="/login" replace />
        </Route>
      </Switch>
    );
  }

  return (
    <Suspense fallback={<PageLoading />}>
      <Switch>
        <Route path="/login">
          <Redirect to="/conversations" replace />
        </Route>
        <Route path="/">
          <Redirect to="/conversations" replace />
        </Route>
        <Route path="/conversations" component={ConversationsPage} />
        <Route path="/conversations/:id" component={ConversationDetailPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route path="/test-gemini" component={VectorModelTestPage} />
        <Route path="/web-search-test" component={WebSearchTestPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
