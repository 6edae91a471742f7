import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openApiDocument } from "./http/route-contracts.ts";
import { createProviders } from "./providers/registry.ts";
import { openStore } from "./store/open-store.ts";

/** The checked-in OpenAPI document (decision 085): `npm run openapi` writes it, a route test fails when it is stale. */
export const OPENAPI_FILE = fileURLToPath(new URL("../../../docs/openapi.json", import.meta.url));

/** The document as the file holds it: two-space JSON and a final newline. */
export const formatOpenApi = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

/** Builds the app on embedded defaults in a temporary folder and answers its OpenAPI document. */
export async function generateOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(path.join(tmpdir(), "sage-openapi-"));
  const config = loadConfig({ SAGE_DATA_DIR: dir, SAGE_WEB_DIR: `${dir}/no-web`, SAGE_LOG_LEVEL: "silent", SAGE_DOCUMENT_WARM: "false" });
  const store = await openStore({ dataDir: config.dataDir, uploadsDir: config.files.dir });
  try {
    const { app } = await createApp({ config, store, providers: createProviders(config), logger: false });
    await app.ready();
    const document = openApiDocument(app);
    await app.close();
    return document;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
