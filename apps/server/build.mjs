// Bundles the server (and the TypeScript-only @sage/contracts) into dist/main.js; npm packages stay external.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith("@sage/"));

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  banner: { js: "import { createRequire as __sageCreateRequire } from 'node:module'; const require = __sageCreateRequire(import.meta.url);" },
  logLevel: "warning",
});
cpSync("src/store/migrations", "dist/migrations", { recursive: true });
console.log("server built: apps/server/dist/main.js, dist/cli.js");
