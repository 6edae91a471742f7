// The house rules that hold by tool, not by discipline. Decision 008 says why each exists.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import checkFile from "eslint-plugin-check-file";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const root = path.dirname(fileURLToPath(import.meta.url));
const foldersIn = (relative) =>
  readdirSync(path.join(root, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const serverModules = foldersIn("apps/server/src/modules");
const webFeatures = foldersIn("apps/web/src/features");
const testFiles = [
  "**/*.test.ts",
  "**/*.test.tsx",
  "e2e/**/*.spec.ts",
  "**/test/**",
  "**/*-test-helpers.ts",
  "**/testkit/**",
  "apps/server/src/reliability/**",
];

/**
 * Who may import what: production code only its own package's dependencies; tests, fixture builders, e2e, bench,
 * scripts and tool configs also the devDependencies (their package's and the root's, where vitest and friends live).
 */
const devDependencyFiles = [
  ...testFiles,
  "**/test-*.ts",
  "**/test-fixtures/**",
  "e2e/**",
  "bench/**",
  "scripts/**",
  "apps/*/scripts/**",
  "apps/server/build.mjs",
  "**/*.config.{ts,mjs,js}",
];
const ownDependenciesOnly = (...packageDirs) => ({
  "import-x/no-extraneous-dependencies": [
    "error",
    {
      packageDir: [...new Set([...packageDirs.map((dir) => path.join(root, dir)), root])],
      devDependencies: devDependencyFiles,
      optionalDependencies: false,
      peerDependencies: false,
      includeTypes: true,
    },
  ],
});
const workspaces = ["apps/server", "apps/web", "packages/contracts", "packages/testkit"];

/** Raw SQL (better-sqlite3) is the store's and the search index's; everything else builds queries with Kysely. */
const rawSqlMessage = "Raw SQL lives in store/ and modules/retrieval/index/ only; build queries with Kysely (store.db, or store.prepare for synchronous ones).";
const rawSqlFiles = [
  "apps/server/src/store/**/*.ts",
  "apps/server/src/modules/retrieval/index/**/*.ts",
  "apps/server/src/modules/retrieval/retrieval.module.ts",
  "apps/server/src/app.ts",
  "apps/server/src/main.ts",
];

/** Vendor SDKs: model, embedding and search vendors are reached only through providers/. */
const vendorSdks = [
  "ai",
  "ai/*",
  "@ai-sdk/*",
  "@huggingface/transformers",
  "onnxruntime-node",
  "imapflow",
  "nodemailer",
  "tsdav",
  "grammy",
  "grammy/*",
  "@slack/*",
  "openid-client",
];

/** The server's boundaries (decision 008; documents/ by decision 025). */
const serverZones = [
  // Infrastructure knows nothing of the features built on it.
  ...["http", "store", "providers", "jobs"].map((layer) => ({
    target: `./apps/server/src/${layer}`,
    from: "./apps/server/src/modules",
    message: `${layer}/ is infrastructure: it must not import from modules/.`,
  })),
  // Channels (decision 075) carry messages for the channels module and know no other feature.
  {
    target: "./apps/server/src/channels",
    from: "./apps/server/src/modules",
    message: "channels/ only carries messages: it must not import from modules/ (the channels module drives it).",
  },
  // Document reading serves every module and knows none: modules use it through its face, documents.ts.
  {
    target: "./apps/server/src/documents",
    from: "./apps/server/src/modules",
    message: "documents/ reads untrusted documents for any module: it must not import from modules/.",
  },
  {
    target: "./apps/server/src/modules",
    from: "./apps/server/src/documents",
    except: ["./documents.ts", "./test"],
    message: "modules/ use documents/ only through documents/documents.ts (tests also through its fixtures in documents/test/).",
  },
  // A module uses another only through its face, <name>.module.ts; everything else is its own.
  ...serverModules.flatMap((module) =>
    serverModules
      .filter((other) => other !== module)
      .map((other) => ({
        target: `./apps/server/src/modules/${module}`,
        from: `./apps/server/src/modules/${other}`,
        except: [`./${other}.module.ts`],
        message: `modules/${module} may use modules/${other} only through ${other}.module.ts (or a port passed in).`,
      })),
  ),
  // Only the composition root (app.ts, main.ts) wires modules together.
  {
    target: "./apps/server/src/modules",
    from: ["./apps/server/src/app.ts", "./apps/server/src/main.ts"],
    message: "Modules take what they need as arguments; they never import the composition root.",
  },
];

export default tseslint.config(
  { ignores: [".cache/**", "**/dist/**", "**/node_modules/**", "test-results/**", "bench/results/**", "apps/web/public/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { console: "readonly", process: "readonly" } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "import-x": importX, "check-file": checkFile },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ["apps/server/tsconfig.json", "apps/web/tsconfig.json", "packages/*/tsconfig.json", "e2e/tsconfig.json"],
        }),
      ],
    },
    rules: {
      // TypeScript checks undefined names itself (with the right globals for node and the browser).
      "no-undef": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "check-file/filename-naming-convention": ["error", { "**/*.{ts,tsx,mjs,js}": "KEBAB_CASE" }, { ignoreMiddleExtensions: true }],
      "check-file/folder-naming-convention": ["error", { "{apps,packages,e2e,bench}/**/": "KEBAB_CASE" }],
    },
  },
  { rules: ownDependenciesOnly(".") },
  ...workspaces.map((workspace) => ({ files: [`${workspace}/**/*.{ts,tsx,mjs,js}`], rules: ownDependenciesOnly(workspace) })),
  // The benchmarks drive the server's own code and stores, so they may use the server's dependencies too.
  { files: ["bench/**"], rules: ownDependenciesOnly(".", "apps/server") },
  {
    // Tests may reach into a value's shape with `any` where the assertion is about that shape.
    files: testFiles,
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["apps/server/src/**/*.ts"],
    ignores: testFiles,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: vendorSdks, message: "Vendor SDKs are used only inside apps/server/src/providers/ (behind its small interfaces)." },
            { group: ["better-sqlite3"], message: rawSqlMessage },
          ],
        },
      ],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read settings in config.ts and pass them down." }],
      "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='sqlite']", message: rawSqlMessage }],
    },
  },
  {
    // Where raw SQL lives: the store itself, the search index, and what wires them.
    files: rawSqlFiles,
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: vendorSdks, message: "Vendor SDKs are used only inside apps/server/src/providers/." }] }],
      "no-restricted-syntax": "off",
    },
  },
  {
    files: ["apps/server/src/providers/**/*.ts", "apps/server/src/config.ts"],
    rules: { "no-restricted-imports": "off", "no-restricted-properties": "off" },
  },
  {
    // Channel adapters are the providers of messaging services: the only place their SDKs (grammY, Bolt) are used.
    files: ["apps/server/src/channels/**/*.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["apps/server/src/**/*.ts"],
    rules: { "import-x/no-restricted-paths": ["error", { zones: serverZones }] },
  },
  {
    // Test fixtures (builders of documents, apps, clients; they may use devDependencies) stay out of the server.
    files: ["apps/server/src/**/*.ts"],
    ignores: testFiles,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...serverZones,
            { target: "./apps/server/src", from: "./apps/server/src/**/test/**", message: "test/ folders hold test fixtures: the server never imports them." },
          ],
        },
      ],
    },
  },
  {
    files: ["apps/web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            // Features never import each other: pages in app/ compose them.
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: "./apps/web/src/features",
              except: [`./${feature}`],
              message: `features/${feature} must not import another feature; compose them in app/.`,
            })),
            ...["components", "lib"].map((shared) => ({
              target: `./apps/web/src/${shared}`,
              from: ["./apps/web/src/features", "./apps/web/src/app"],
              message: `${shared}/ is shared by every feature: it must not import features or the app.`,
            })),
            {
              target: "./apps/web/src/features",
              from: "./apps/web/src/app",
              message: "Features are composed by app/, never the other way round.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every failure's toast goes through toastError, so failures look and read alike (decision 026).
    files: ["apps/web/src/**/*.{ts,tsx}"],
    ignores: ["apps/web/src/components/ui/toast-error.ts", ...testFiles],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name='variant'][value.value='destructive']",
          message: "Show a failure with toastError (or errorToast for a toast's data) from components/ui/toast-error.ts.",
        },
      ],
    },
  },
  {
    files: ["packages/contracts/**/*.ts"],
    ignores: ["packages/contracts/**/*.test.ts", "packages/contracts/vitest.config.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(?!zod$|\\.).*", message: "Contracts depend on zod alone." }] }],
    },
  },
);
