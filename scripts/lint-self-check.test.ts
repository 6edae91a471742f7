import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findImportCycles } from "./check-import-cycles.mjs";

// The lint rules are the house's boundaries: each deliberate violation here must be caught, or a rule stopped working.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let eslint: ESLint;
beforeAll(() => void (eslint = new ESLint({ cwd: root })));

async function rulesBroken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("the lint rules reject", () => {
  it("a web feature importing another feature", async () => {
    // The zone rules only see imports that resolve, so the probe imports a file that exists.
    expect(existsSync(path.join(root, "apps/web/src/features/reminders/reminder-buckets.ts"))).toBe(true);
    const code = 'import { bucketReminders } from "@/features/reminders/reminder-buckets";\nexport const x = bucketReminders;\n';
    expect(await rulesBroken("apps/web/src/features/chat/probe.ts", code)).toContain("import-x/no-restricted-paths");
    expect(await rulesBroken("apps/web/src/features/chat/probe.ts", code.replace("@/features/reminders", "../reminders"))).toContain(
      "import-x/no-restricted-paths",
    );
  });

  it("shared web code importing a feature", async () => {
    expect(await rulesBroken("apps/web/src/lib/probe.ts", 'import { x } from "@/features/chat/live-turn";\nexport const y = x;\n')).toContain(
      "import-x/no-restricted-paths",
    );
  });

  it("a server module importing another module's internals, but not its face", async () => {
    const internal = 'import { createKnowledgeRepo } from "../knowledge/knowledge.repo.ts";\nexport const x = createKnowledgeRepo;\n';
    expect(await rulesBroken("apps/server/src/modules/reminders/probe.ts", internal)).toContain("import-x/no-restricted-paths");
    const face = 'import type { KnowledgeModule } from "../knowledge/knowledge.module.ts";\nexport type X = KnowledgeModule;\n';
    expect(await rulesBroken("apps/server/src/modules/reminders/probe.ts", face)).toEqual([]);
  });

  it("infrastructure importing a module, and a module importing the composition root", async () => {
    expect(
      await rulesBroken("apps/server/src/http/probe.ts", 'import type { X } from "../modules/knowledge/knowledge.module.ts";\nexport type Y = X;\n'),
    ).toContain("import-x/no-restricted-paths");
    expect(
      await rulesBroken("apps/server/src/modules/knowledge/probe.ts", 'import type { AppDeps } from "../../app.ts";\nexport type Y = AppDeps;\n'),
    ).toContain("import-x/no-restricted-paths");
  });

  it("document reading importing a module, and a module reaching past the documents face", async () => {
    const moduleImport = 'import type { KnowledgeModule } from "../modules/knowledge/knowledge.module.ts";\nexport type X = KnowledgeModule;\n';
    expect(await rulesBroken("apps/server/src/documents/probe.ts", moduleImport)).toContain("import-x/no-restricted-paths");
    const internal = 'import { createConversionPool } from "../../documents/conversion-pool.ts";\nexport const x = createConversionPool;\n';
    expect(await rulesBroken("apps/server/src/modules/knowledge/probe.ts", internal)).toContain("import-x/no-restricted-paths");
    const face = 'import { createDocumentReader } from "../../documents/documents.ts";\nexport const x = createDocumentReader;\n';
    expect(await rulesBroken("apps/server/src/modules/knowledge/probe.ts", face)).toEqual([]);
  });

  it("server code importing a test fixture, which a test may", async () => {
    const fixture = 'import { makePdf } from "../../documents/test/test-documents.ts";\nexport const x = makePdf;\n';
    expect(await rulesBroken("apps/server/src/modules/knowledge/probe.ts", fixture)).toContain("import-x/no-restricted-paths");
    expect(await rulesBroken("apps/server/src/modules/knowledge/probe.test.ts", fixture)).toEqual([]);
  });

  it("a vendor SDK, raw SQL or process.env outside their places", async () => {
    const module = "apps/server/src/modules/assistant/probe.ts";
    expect(await rulesBroken(module, 'import { generateText } from "ai";\nexport const x = generateText;\n')).toContain("no-restricted-imports");
    expect(await rulesBroken(module, 'import Database from "better-sqlite3";\nexport const x = Database;\n')).toContain("no-restricted-imports");
    expect(await rulesBroken(module, "export const x = (store: { sqlite: unknown }) => store.sqlite;\n")).toContain("no-restricted-syntax");
    expect(await rulesBroken(module, "export const key = process.env.GEMINI_API_KEY;\n")).toContain("no-restricted-properties");
    expect(await rulesBroken("apps/server/src/providers/llm/probe.ts", 'import { generateText } from "ai";\nexport const x = generateText;\n')).toEqual([]);
  });

  it("a hand-written red toast on the web, but not the one helper that shows them", async () => {
    const code =
      'import { toast } from "@/components/ui/use-toast";\nexport const x = () => toast({ title: "Error", description: "Failed", variant: "destructive" });\n';
    expect(await rulesBroken("apps/web/src/features/chat/probe.ts", code)).toContain("no-restricted-syntax");
    expect(await rulesBroken("apps/web/src/components/ui/toast-error.ts", 'export const x = { variant: "destructive" };\n')).toEqual([]);
  });

  it("production code importing a devDependency or another package's dependency, but not test fixtures doing so", async () => {
    const devOnly = 'import { PDFDocument } from "pdf-lib";\nexport const x = PDFDocument;\n';
    expect(await rulesBroken("apps/server/src/modules/knowledge/probe.ts", devOnly)).toContain("import-x/no-extraneous-dependencies");
    expect(await rulesBroken("apps/web/src/lib/probe.ts", 'import Fastify from "fastify";\nexport const x = Fastify;\n')).toContain(
      "import-x/no-extraneous-dependencies",
    );
    expect(await rulesBroken("apps/web/src/lib/probe.ts", 'import type { Plugin } from "vite";\nexport type X = Plugin;\n')).toContain(
      "import-x/no-extraneous-dependencies",
    );
    // Fixture builders may sit beside the code (test-*.ts) or in a test/ or test-fixtures/ folder.
    for (const fixture of [
      "apps/server/src/modules/knowledge/ingestion/test-probe.ts",
      "apps/server/src/documents/test/probe.ts",
      "apps/server/src/documents/test-fixtures/probe.ts",
    ]) {
      expect(await rulesBroken(fixture, devOnly)).toEqual([]);
    }
    expect(await rulesBroken("apps/server/src/probe.test.ts", 'import { it } from "vitest";\nexport const x = it;\n')).toEqual([]);
  });

  it("a file name that is not kebab-case", async () => {
    expect(await rulesBroken("apps/web/src/lib/apiHelper.ts", "export const x = 1;\n")).toContain("check-file/filename-naming-convention");
  });
});

describe("the import-cycle check", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "sage-cycles-"));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, moduleResolution: "bundler", module: "esnext" }, include: ["*.ts"] }),
    );
    writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b.ts";\nexport interface A { b: B }\n');
    writeFileSync(path.join(dir, "b.ts"), 'import type { A } from "./a.ts";\nexport interface B { a?: A }\n');
    writeFileSync(path.join(dir, "c.ts"), 'import type { A } from "./a.ts";\nexport type C = A;\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds a loop made of type-only imports, and nothing else", () => {
    expect(findImportCycles(dir, ["tsconfig.json"])).toEqual({ files: 3, cycles: [["a.ts", "b.ts"]] });
  });

  it("finds none in SAGE itself", () => {
    const projects = ["apps/server/tsconfig.json", "apps/web/tsconfig.json", "packages/contracts/tsconfig.json", "packages/testkit/tsconfig.json"];
    expect(findImportCycles(root, projects).cycles).toEqual([]);
  });
});
