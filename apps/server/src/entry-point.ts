import { fork, type ChildProcess, type ForkOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Every child process and worker thread the server starts is a TypeScript file named `<name>.entry.ts`, typed and
 * linted like the rest, and build.mjs bundles each into dist/<name>.js beside the server, which starts it from
 * there. Run from source (tests, `npm run dev`, the benchmarks under tsx), the entries are bundled the same way on
 * first use into node_modules/.cache/sage-entries/<fingerprint>/ and started from there: a worker thread cannot
 * run TypeScript without tsx registered inside it (a thread took 4-6x as long to start, measured), and a
 * bundled entry finds the entries it starts beside it, as in dist/ (decision 025).
 */
const fromSource = import.meta.url.endsWith(".ts");
const ENTRY_SUFFIX = ".entry.ts";

/** Forks a child process on an entry. Its execArgv is only what is given: the parent's flags are not inherited. */
export function forkEntry(source: URL, options: ForkOptions & { args?: string[] } = {}): ChildProcess {
  const { args = [], execArgv = [], ...rest } = options;
  return fork(entryFile(source), args, { ...rest, execArgv });
}

/** Starts a worker thread on an entry. */
export function startThread(source: URL, options: WorkerOptions = {}): Worker {
  return new Worker(entryFile(source), options);
}

/**
 * The JavaScript file to start for an entry named by its source, `new URL("./<name>.entry.ts", import.meta.url)`
 * (beside the caller in src/; dist/ is flat, so the name alone finds it there).
 */
export function entryFile(source: URL): string {
  const sourcePath = fileURLToPath(source);
  if (!sourcePath.endsWith(ENTRY_SUFFIX)) throw new Error(`${sourcePath} is not an entry (<name>${ENTRY_SUFFIX})`);
  const name = path.basename(sourcePath, ENTRY_SUFFIX);
  if (fromSource) {
    if (!existsSync(sourcePath)) throw new Error(`The entry ${sourcePath} does not exist`);
    return path.join(builtFromSource(), `${name}.js`);
  }
  // Said at once: a thread on a missing file fails only later, in an error event some callers ignore.
  const built = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  if (!existsSync(built)) throw new Error(`The built entry ${built} is missing: run npm run build`);
  return built;
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = path.join(serverDir, "node_modules", ".cache", "sage-entries");
/** A build no process has used for this long is removed when another is written. */
const UNUSED_BUILD_MS = 7 * 24 * 3_600_000;
let sourceBuildDir: string | undefined;

/** Every `<name>.entry.ts` under src/ (outside test folders), by name; build.mjs finds them the same way. */
function sourceEntries(srcDir = path.join(serverDir, "src")): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const file of readdirSync(srcDir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(ENTRY_SUFFIX) || file.split(path.sep).includes("test")) continue;
    const name = path.basename(file, ENTRY_SUFFIX);
    if (entries[name]) throw new Error(`Two entries are named ${name}: ${entries[name]} and ${file} (dist/ holds one ${name}.js)`);
    entries[name] = path.join(srcDir, file);
  }
  return entries;
}

/**
 * What the bundles are made of: every file of src/ and of the workspace's packages (bundled too), by path, size and
 * modification time. A few milliseconds, where bundling takes 0.1-0.4 s.
 */
function sourceFingerprint(): string {
  const hash = createHash("sha256");
  const packagesDir = path.resolve(serverDir, "..", "..", "packages");
  const roots = [path.join(serverDir, "src"), ...(existsSync(packagesDir) ? readdirSync(packagesDir).map((name) => path.join(packagesDir, name, "src")) : [])];
  for (const root of roots.filter((dir) => existsSync(dir))) {
    for (const file of readdirSync(root, { recursive: true, encoding: "utf8" }).sort()) {
      const stats = statSync(path.join(root, file));
      if (stats.isFile()) hash.update(`${root}/${file}\0${stats.size}\0${stats.mtimeMs}\0`);
    }
  }
  hash.update(readFileSync(path.join(serverDir, "package.json")));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Bundles every entry, as build.mjs does but with the installed packages left to Node (the workspace's TypeScript
 * packages, @sage/*, are bundled), into a folder named by the sources' fingerprint: processes run on the same
 * sources share it (a second one finds it built), and one run on other sources never changes it under them.
 */
function builtFromSource(): string {
  if (sourceBuildDir) return sourceBuildDir;
  const dir = path.join(cacheDir, sourceFingerprint());
  if (!existsSync(dir)) buildInto(dir);
  const now = new Date();
  utimesSync(dir, now, now);
  sourceBuildDir = dir;
  return dir;
}

function buildInto(dir: string): void {
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const manifest = JSON.parse(readFileSync(path.join(serverDir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const packages = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !name.startsWith("@sage/"));
  const pending = path.join(cacheDir, "pending");
  const { outputFiles } = esbuild.buildSync({
    entryPoints: sourceEntries(),
    outdir: pending,
    write: false,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [...packages, ...packages.map((name) => `${name}/*`)],
    logLevel: "warning",
  });
  mkdirSync(cacheDir, { recursive: true });
  // The cache sits in node_modules, where Node stops looking for the package.json that makes .js files ES modules.
  writeFileSync(path.join(cacheDir, "package.json"), '{ "type": "module" }\n');
  // Written aside, then renamed: a process never starts a half-written bundle.
  const partial = `${dir}.${process.pid}.partial`;
  for (const file of outputFiles) {
    const target = path.join(partial, path.relative(pending, file.path));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process built the same sources first: keep theirs.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  removeUnusedBuilds(dir);
}

function removeUnusedBuilds(keep: string): void {
  for (const entry of readdirSync(cacheDir, { withFileTypes: true })) {
    const dir = path.join(cacheDir, entry.name);
    if (!entry.isDirectory() || dir === keep) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > UNUSED_BUILD_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
