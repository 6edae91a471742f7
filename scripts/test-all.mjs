// `npm test`: lints (the house rules), builds the app, type-checks, runs unit + integration tests (Vitest), then browser tests (Playwright),
// and ends with one plain summary line.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const run = (command, args) => spawnSync(command, args, { stdio: "inherit", env: process.env }).status ?? 1;
const summary = { passed: 0, failed: 0, skipped: 0 };

if (run("npm", ["run", "lint"]) !== 0) {
  console.error("Lint failed.");
  process.exit(1);
}

if (run("npm", ["run", "build"]) !== 0) {
  console.error("Build failed.");
  process.exit(1);
}

if (run("npm", ["run", "typecheck"]) !== 0) {
  console.error("Type check failed.");
  process.exit(1);
}

rmSync("test-results", { recursive: true, force: true });
const unitStatus = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile=test-results/unit-results.json"]);
if (existsSync("test-results/unit-results.json")) {
  const unit = JSON.parse(readFileSync("test-results/unit-results.json", "utf8"));
  summary.passed += unit.numPassedTests;
  summary.failed += unit.numFailedTests;
  summary.skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
}

const e2eStatus = run("npx", ["playwright", "test", ...process.argv.slice(2)]);
if (existsSync("test-results/e2e-results.json")) {
  const e2e = JSON.parse(readFileSync("test-results/e2e-results.json", "utf8"));
  summary.passed += e2e.stats.expected + e2e.stats.flaky;
  summary.failed += e2e.stats.unexpected;
  summary.skipped += e2e.stats.skipped;
}

console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(unitStatus !== 0 || e2eStatus !== 0 ? 1 : 0);
