// Bundles the server with the TypeScript-only @sage/* packages and its pure-JS dependencies into dist/: start-up
// then reads a few files instead of resolving and loading about a thousand modules (cold start, docs/benchmarks.md).
import { cpSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Left to Node at run time: native addons, packages that read their own files or start workers from them, parsers
// and the fetcher that load on first use (so they cost nothing at start-up), and Fastify's schema compilers (no
// route declares a Fastify schema; app.ts loads them only if one ever does). A new dependency with native code,
// or one that reads its own files at run time, belongs here.
const EXTERNAL = [
  "better-sqlite3",
  "argon2",
  "usearch",
  "sqlite-vec",
  "onnxruntime-node",
  "pdfjs-dist",
  "@huggingface/transformers",
  "linkedom",
  "mammoth",
  "word-extractor",
  "@mozilla/readability",
  "undici",
  // External tools (decision 017): the MCP SDK loads on a tool server's first start.
  "@modelcontextprotocol/sdk",
  // Document types and OCR (decision 009): parsers and workers that load on first use, native sharp and canvas.
  "tesseract.js",
  "@tesseract.js-data/eng",
  "sharp",
  "@napi-rs/canvas",
  "officeparser",
  "@e965/xlsx",
  "postal-mime",
  "mbox-reader",
  "ical.js",
  "rtf.js",
  // Document writers (decision 042): loaded on a document's first creation; pdfkit reads its font metrics from its folder.
  "docx",
  "pptxgenjs",
  "exceljs",
  "pdfkit",
  // Channels (decision 075): grammY and Bolt load when a Telegram or Slack channel first listens or sends.
  "grammy",
  "@slack/bolt",
  "@fastify/ajv-compiler",
  "@fastify/fast-json-stringify-compiler",
  // CommonJS that @fastify/cookie loads with import(): bundled, esbuild would give it only a default export.
  "cookie",
];

// Every child process and worker thread the server starts is an entry of its own, src/**/<name>.entry.ts, built into
// dist/<name>.js, where src/entry-point.ts finds it (and, run from source, builds the same files on first use).
const entries = {};
for (const file of readdirSync("src", { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".entry.ts") || file.split(path.sep).includes("test")) continue;
  const name = path.basename(file, ".entry.ts");
  if (entries[name]) throw new Error(`Two entries are named ${name}: ${entries[name]} and src/${file}`);
  entries[name] = `src/${file}`;
}

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli.ts", ...entries },
  outdir: "dist",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external: [...EXTERNAL, ...EXTERNAL.map((name) => `${name}/*`)],
  // Bundled CommonJS packages call require() (node builtins, the external packages above).
  banner: { js: "import { createRequire as __sageCreateRequire } from 'node:module'; const require = __sageCreateRequire(import.meta.url);" },
  logLevel: "warning",
});
cpSync("src/store/migrations", "dist/migrations", { recursive: true });
// PostgreSQL's twin schema (store/postgres/open-postgres-db.ts finds it here in the bundle).
cpSync("src/store/postgres/migrations", "dist/postgres-migrations", { recursive: true });
console.log(`server built: apps/server/dist/main.js, dist/cli.js and ${Object.keys(entries).length} process and thread entries`);
