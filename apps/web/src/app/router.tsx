import { Redirect, Route, Switch } from "wouter";
import { useAuthSession } from "@/features/auth/hooks/use-auth-session";
import { ConversationDetailPage } from "./routes/conversation-detail-page";
import { ConversationsPage } from "./routes/conversations-page";
import { LoginPage } from "./routes/login-page";
import { NotFoundPage } from "./routes/not-found-page";
import { SettingsPage } from "./routes/settings-page";
import { TestGeminiPage } from "./routes/test-gemini-page";
import { WebSearchTestPage } from "./routes/web-search-test-page";

/** Spec 2 'Route table'. Logged out, every path but /login goes to /login. */
export function AppRouter() {
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
      <Route path="/test-gemini" component={TestGeminiPage} />
      <Route path="/web-search-test" component={WebSearchTestPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
