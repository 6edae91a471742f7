import { createApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createProviders } from "./providers/registry.ts";
import { startupLine, type ListenAddress } from "./startup-line.ts";
import { openAppStore, withoutPassword } from "./store/open-app-store.ts";
import { StoreError } from "./store/open-store.ts";

async function main() {
  const config = loadConfig();
  const providers = createProviders(config);
  const store = await openAppStore({ dataDir: config.dataDir, uploadsDir: config.files.dir, databaseUrl: config.databaseUrl, backgroundCheckpoints: true });
  const { app, accountsReady, vectorSearch } = await createApp({ config, store, providers, startJobsOn: "listen" });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    // Give in-flight requests a moment, then exit regardless; SQLite's WAL keeps what was committed.
    setTimeout(() => process.exit(0), 5000).unref();
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  await accountsReady;
  // Stopped while still starting: the socket is closed and there is no address to print.
  if (closing) return;
  const database = config.databaseUrl ? `PostgreSQL at ${withoutPassword(config.databaseUrl)}` : `SQLite in ${config.dataDir}`;
  app.log.info({ dataDir: config.dataDir, database, vectorSearch, providers: providers.describe() }, "SAGE is ready");
  if (config.databaseUrl) process.stdout.write(`SAGE stores its data in ${database}; vector search: ${vectorSearch}\n`);
  // One plain line for a person, whatever the log level: the JSON lines above are for machines.
  process.stdout.write(`${startupLine(config, app.server.address() as ListenAddress)}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StoreError) {
    console.error(`SAGE could not start: ${error.message}`);
  } else {
    console.error("SAGE could not start:", error);
  }
  process.exit(1);
});
