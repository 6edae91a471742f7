// `npm run openapi`: regenerates docs/openapi.json from the routes' schemas (commit it with the route change).
import { writeFileSync } from "node:fs";
import { OPENAPI_FILE, formatOpenApi, generateOpenApiDocument } from "./openapi-document.ts";

const document = await generateOpenApiDocument();
writeFileSync(OPENAPI_FILE, formatOpenApi(document));
const paths = Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>);
console.log(`Wrote ${OPENAPI_FILE}: ${paths.reduce((count, item) => count + Object.keys(item).length, 0)} operations on ${paths.length} paths.`);
