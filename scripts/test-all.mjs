// `npm test`: lints (the house rules), builds the app, type-checks, runs the Vitest projects (server, web, system and
// their PostgreSQL and isolated kin), then the browser tests (Playwright), and ends with each stage's time and one plain summary line.
// Lint runs beside build + type check: each is one process on one core, so a two-core machine does both at once.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const summary = { passed: 0, failed: 0, skipped: 0 };
/** Each failed test's place, name and first line of its error: printed last, so a log's tail names them. */
const failedTests = [];
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((line) => line.trim() !== "") ?? "";
const times = [];
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs a command; with `quiet`, its output is kept and printed once it ends, so two at once do not interleave. */
function run(command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => resolve({ status: code ?? 1, output: Buffer.concat(output).toString() }));
  });
}

/** Runs the named stages one after another, timing each; stops at the first that fails. */
async function lane(stages, options) {
  for (const [name, command, args] of stages) {
    const started = Date.now();
    const { status, output } = await run(command, args, options);
    times.push([name, Date.now() - started]);
    if (options?.quiet) process.stdout.write(`\n--- ${name} (${seconds(Date.now() - started)}) ---\n${output}`);
    if (status !== 0) return name;
  }
  return null;
}

const FAILED = { lint: "Lint failed.", build: "Build failed.", typecheck: "Type check failed." };
const started = Date.now();
const failures = (
  await Promise.all([
    lane([["lint", "npm", ["run", "lint"]]], { quiet: true }),
    lane(
      [
        ["build", "npm", ["run", "build"]],
        ["typecheck", "npm", ["run", "typecheck"]],
      ],
      { quiet: true },
    ),
  ])
).filter(Boolean);
if (failures.length > 0) {
  for (const failure of failures) console.error(FAILED[failure]);
  process.exit(1);
}

rmSync("test-results", { recursive: true, force: true });
// One Vitest run over every project: it keeps both cores busy across the projects' files.
const vitestStarted = Date.now();
const unitStatus = (await run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile=test-results/unit-results.json"])).status;
times.push(["vitest", Date.now() - vitestStarted]);
if (existsSync("test-results/unit-results.json")) {
  const unit = JSON.parse(readFileSync("test-results/unit-results.json", "utf8"));
  summary.passed += unit.numPassedTests;
  summary.failed += unit.numFailedTests;
  summary.skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
  for (const file of unit.testResults ?? []) {
    const place = file.name.replace(`${process.cwd()}/`, "");
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) failedTests.push(`${place} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === "failed") failedTests.push(`${place}: ${firstLine(file.message)}`);
  }
}

const e2eStarted = Date.now();
const e2eStatus = (await run("npx", ["playwright", "test", ...process.argv.slice(2)])).status;
times.push(["playwright", Date.now() - e2eStarted]);
if (existsSync("test-results/e2e-results.json")) {
  const e2e = JSON.parse(readFileSync("test-results/e2e-results.json", "utf8"));
  summary.passed += e2e.stats.expected + e2e.stats.flaky;
  summary.failed += e2e.stats.unexpected;
  summary.skipped += e2e.stats.skipped;
  const walk = (suite, titles) => {
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const error = spec.tests?.flatMap((test) => test.results ?? []).find((result) => result.error)?.error;
      failedTests.push(`${spec.file}:${spec.line} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error?.message)}`);
    }
  };
  for (const suite of e2e.suites ?? []) walk(suite, []);
}

times.push(["total", Date.now() - started]);
console.log(times.map(([name, ms]) => `${name} ${seconds(ms)}`).join(", "));
if (failedTests.length > 0) console.log(`Failed:\n${failedTests.map((line) => `  - ${line.slice(0, 300)}`).join("\n")}`);
console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(unitStatus !== 0 || e2eStatus !== 0 ? 1 : 0);
