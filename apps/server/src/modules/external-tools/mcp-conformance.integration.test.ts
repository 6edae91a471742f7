import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its client scenarios) against SAGE's client:
 * the suite starts a test server per scenario and runs test/conformance-client.ts (bundled) on it. Every scenario
 * passes, or is excused below with its reason (decision 080). An excused scenario that starts passing fails this
 * test too, so the list never goes stale.
 */
/** Extension scenarios (not the core specification) for clients that act as themselves rather than for a person. */
const MACHINE_SIGN_IN =
  "An extension for machine clients: SAGE signs in for each person, with their consent in a browser; a token of SAGE's own would be every user's (decision 080)";
const EXCUSED: Record<string, string> = {
  "auth/client-credentials-jwt": MACHINE_SIGN_IN,
  "auth/client-credentials-basic": MACHINE_SIGN_IN,
  "auth/cross-app-access-complete-flow":
    "An extension (SEP-990) exchanging an enterprise identity provider's token for the server's: SAGE has no such exchange with the company's sign-in yet (decision 080)",
};

const serverDir = fileURLToPath(new URL("../../../", import.meta.url));
const conformanceBin = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/conformance/package.json")
  .replace(/package\.json$/, "dist/index.js");
const loaderHook = fileURLToPath(new URL("./test/conformance-node20.mjs", import.meta.url));
const temp = makeTempDir();
const cacheDir = path.join(serverDir, "node_modules", ".cache", "sage-conformance", String(process.pid));
let client: string;

/** The client bundled (the workspace's TypeScript packages in, installed packages left to Node), as entry-point.ts does. */
async function bundleClient(): Promise<string> {
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const manifest = JSON.parse(readFileSync(path.join(serverDir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const packages = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !name.startsWith("@sage/"));
  const outfile = path.join(cacheDir, "conformance-client.mjs");
  mkdirSync(cacheDir, { recursive: true });
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL("./test/conformance-client.ts", import.meta.url))],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [...packages, ...packages.map((name) => `${name}/*`)],
    logLevel: "warning",
  });
  return outfile;
}

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** Each scenario's checks, from the suite's result folders (`<scenario>-<time>/checks.json`, scenario names keep their `/`). */
function readResults(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (path.basename(file) !== "checks.json") continue;
    const scenario = path.dirname(file).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z?$/, "");
    results.set(scenario, JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Check[]);
  }
  return results;
}

/**
 * A scenario passes as the suite counts it (some check succeeded, none failed or warned), except that a timing check
 * that only warns (sse-retry's "reconnected slightly late": 200 ms past the server's retry, on a loaded two-core
 * machine) is not the client's behaviour; a timing failure (too early, or twice the retry) still fails.
 */
const TIMING_CHECKS = new Set(["client-sse-retry-timing"]);
const passes = (checks: Check[]) =>
  checks.some((check) => check.status === "SUCCESS") &&
  !checks.some((check) => check.status === "FAILURE" || (check.status === "WARNING" && !TIMING_CHECKS.has(check.id)));

const node = (args: string[], cwd: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // The suite's CLI imports one Node 22 function (fs.globSync) for a command SAGE does not run: the hook gives it a
    // stand-in so the rest runs on Node 20 (decision 080).
    // The client opens a store of its own for its sign-ins: the migrations are read from the sources.
    const env = { ...process.env, SAGE_CONFORMANCE_MIGRATIONS: fileURLToPath(new URL("../../store/migrations/", import.meta.url)) };
    execFile(process.execPath, ["--import", loaderHook, conformanceBin, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : error ? 1 : 0, stdout, stderr }),
    );
  });

const clientCommand = () => `${process.execPath} ${client}`;

/**
 * The whole suite in one run (its scenarios in parallel), then each scenario that did not pass up to three times alone:
 * twenty-six clients starting at once on two cores can miss a timing check or a time limit that one run alone meets.
 */
const RERUNS = 3;

async function runSuite(): Promise<{ results: Map<string, Check[]>; log: string }> {
  const first = path.join(temp.dir, "suite");
  const suite = await node(["client", "--suite", "all", "--command", clientCommand(), "--timeout", "120000", "-o", first], temp.dir);
  const results = readResults(first);
  let log = suite.stdout.slice(suite.stdout.indexOf("=== SUITE SUMMARY"));
  for (const [scenario] of [...results].filter(([name, checks]) => !passes(checks) && !(name in EXCUSED))) {
    // Up to three runs alone: on a machine loaded by a whole test suite, one run alone can still be late.
    for (let attempt = 1; attempt <= RERUNS && !passes(results.get(scenario) ?? []); attempt++) {
      const again = path.join(temp.dir, "again", `${scenario.replace(/\//g, "_")}-${attempt}`);
      const run = await node(["client", "--scenario", scenario, "--command", clientCommand(), "--timeout", "120000", "-o", again], temp.dir);
      const rerun = readResults(again).get(scenario);
      if (rerun) results.set(scenario, rerun);
      log += `\n--- ${scenario} again, run ${attempt} (exit ${run.code})\n${run.stdout.slice(-1500)}${run.stderr.slice(-1500)}`;
    }
  }
  return { results, log };
}

beforeAll(async () => void (client = await bundleClient()));
afterAll(() => {
  temp.remove();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("the MCP conformance suite's client scenarios", () => {
  it("every scenario passes, or is excused in decision 080", { timeout: 600_000 }, async () => {
    const { results, log } = await runSuite();
    expect(results.size, `the suite reported ${results.size} scenarios\n${log}`).toBeGreaterThan(20);
    const passed = [...results].filter(([, checks]) => passes(checks)).map(([scenario]) => scenario);
    const failed = [...results].filter(([, checks]) => !passes(checks));
    console.info(`MCP conformance (client scenarios): ${passed.length} of ${results.size} pass; ${Object.keys(EXCUSED).length} excused`);
    const unexcused = failed
      .filter(([scenario]) => !(scenario in EXCUSED))
      .map(
        ([scenario, checks]) =>
          `${scenario}: ${checks
            .filter((check) => check.status !== "SUCCESS" && check.status !== "INFO")
            .map((check) => `${check.id} ${check.status} ${check.errorMessage ?? ""}`)
            .join("; ")}`,
      );
    // The failing scenarios first: a failure's first line is all a CI summary shows.
    expect(unexcused, `${unexcused.join(" | ")}\n${log.slice(-6000)}`).toEqual([]);
    const stale = passed.filter((scenario) => scenario in EXCUSED);
    expect(stale, "excused scenarios that now pass: take them off the list").toEqual([]);
    expect(
      Object.keys(EXCUSED).filter((scenario) => !results.has(scenario)),
      "excused scenarios the suite no longer has",
    ).toEqual([]);
  });
});
