// Fails when source files import each other in a loop, type-only imports included (ESLint's no-cycle skips
// those, but a loop of types still ties two files into one unit). Resolution follows each package's tsconfig.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const isSource = (file) => /\.(ts|tsx)$/.test(file) && !/\.(test|spec)\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !file.includes("node_modules");

/** The import cycles among the source files of these TypeScript projects, each as a list of files. */
export function findImportCycles(root, projects) {
  const edges = new Map();
  for (const project of projects) {
    const configPath = path.join(root, project);
    const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
    const host = ts.createCompilerHost(parsed.options);
    for (const file of parsed.fileNames.filter(isSource)) {
      const imports = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
      const targets = new Set();
      for (const { fileName } of imports) {
        const resolved = ts.resolveModuleName(fileName, file, parsed.options, host).resolvedModule?.resolvedFileName;
        if (resolved && isSource(resolved)) targets.add(path.resolve(resolved));
      }
      edges.set(path.resolve(file), targets);
    }
  }

  // Tarjan's strongly connected components: each component of two or more files is a cycle.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  function visit(node) {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) cycles.push(component);
    }
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return { files: edges.size, cycles: cycles.map((cycle) => cycle.map((file) => path.relative(root, file)).sort()) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const projects = ["apps/server/tsconfig.json", "apps/web/tsconfig.json", "packages/contracts/tsconfig.json", "packages/testkit/tsconfig.json"];
  const { files, cycles } = findImportCycles(root, projects);
  for (const cycle of cycles) console.error(`Import cycle: ${cycle.join(" <-> ")}`);
  if (cycles.length > 0) process.exit(1);
  console.log(`No import cycles in ${files} source files.`);
}
