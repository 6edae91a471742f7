// `node bench/lib/report-table.mjs [results.json]`: the last run as the markdown table in docs/benchmarks.md,
// with each target checked (targets are strings like "<= 25 ms", ">= 0.5 of limit", "<= 2x limit", joined by "and").
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? new URL("../results/latest.json", import.meta.url);
const report = JSON.parse(readFileSync(file, "utf8"));

export function targetMet(figure) {
  if (!figure.target) return null;
  return figure.target.split(" and ").every((part) => {
    const match = /^(<=|>=)\s*([\d.]+)\s*(x limit|of limit|.*)$/.exec(part.trim());
    if (!match) return false;
    const [, op, number, kind] = match;
    const actual = kind.includes("limit") ? figure.ratio : figure.value;
    if (actual === null || actual === undefined) return false;
    return op === "<=" ? actual <= Number(number) : actual >= Number(number);
  });
}

const cell = (value) => (value === null || value === undefined ? "-" : String(value));
console.log(
  `Run of ${report.date}${report.quick ? " (--quick)" : ""} on ${report.machine.cpus} CPUs, ${report.machine.memoryGb} GB, Node ${report.machine.node}.\n`,
);
console.log("| figure | value | limit | ratio | target | met |");
console.log("|---|---|---|---|---|---|");
for (const figure of report.figures) {
  if (figure.error) {
    console.log(`| ${figure.name} | error: ${figure.error.split("\n")[0]} | | | | |`);
    continue;
  }
  const met = targetMet(figure);
  console.log(
    `| ${figure.name} | ${figure.value} ${figure.unit} | ${cell(figure.limit)} | ${cell(figure.ratio)} | ${cell(figure.target)} | ${met === null ? "-" : met ? "yes" : "**no**"} |`,
  );
}
