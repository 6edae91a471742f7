/**
 * @modelcontextprotocol/conformance 0.1.14 and later import `globSync` from "fs", which Node has from 22 on; SAGE
 * runs on Node 20. The suite uses it only in `tier-check` (reading GitHub results), never in `client`, so its own
 * import of "fs" is given Node's fs plus a globSync that says it is missing (decision 080).
 */
const FS_WITH_GLOB = new URL("./fs-with-glob-sync.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return next(specifier, context);
}
