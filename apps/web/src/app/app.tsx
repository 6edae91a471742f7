import { AppProviders } from "./providers";
import { AppRouter } from "./router";
import { AppShell } from "./shell/app-shell";

export function App() {
  return (
    <AppProviders>
      <AppShell>
        <AppRouter />
      </AppShell>
    </AppProviders>
  );
}
