import { createApp, type AppDeps } from "../app.ts";
import { loadConfig } from "../config.ts";
import { createProviders } from "../providers/registry.ts";
import { openStore } from "../store/open-store.ts";

/**
 * The app over `dataDir` on loadConfig's defaults, its demo account's password `password`, and production's
 * password hasher unless `deps` gives another: what a start-up does, where createTestApp sets a test's cost.
 */
export async function demoAppOnDefaults(dataDir: string, password: string, options: { deps?: Partial<AppDeps>; env?: Record<string, string> } = {}) {
  const config = loadConfig({ SAGE_DATA_DIR: dataDir, SAGE_WEB_DIR: `${dataDir}/no-web`, SAGE_LOG_LEVEL: "silent", SAGE_PASSWORD: password, ...options.env });
  const store = openStore({ dataDir: config.dataDir });
  const { app } = await createApp({ config, store, providers: createProviders(config), logger: false, ...options.deps });
  const login = (pass: string) => app.inject({ method: "POST", url: "/api/auth/login", payload: { username: "demo", password: pass } });
  return { app, store, login, close: async () => (await app.close(), await store.close()) };
}
