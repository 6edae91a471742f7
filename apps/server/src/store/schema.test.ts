import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "./open-store.ts";

// schema.ts is types only, so it is read as source: `Database` names each table's interface, whose properties are
// the columns in camelCase (Kysely's CamelCasePlugin maps them to snake_case).
const schemaFile = fileURLToPath(new URL("./schema.ts", import.meta.url));

/** Tables the migrations make that Kysely must not see: the migration log, and the search index's own (decision 008). */
const NOT_IN_KYSELY = ["schema_migrations", "chunks", "chunk_vectors", "lexical_users", "lexical_pending"];

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Declared columns per table, from schema.ts's `Database` interface and the interfaces it names. */
function declaredTables(source: string): Map<string, string[]> {
  const file = ts.createSourceFile("schema.ts", source, ts.ScriptTarget.Latest);
  const interfaces = new Map(file.statements.filter(ts.isInterfaceDeclaration).map((declaration) => [declaration.name.text, declaration]));
  const propertiesOf = (declaration: ts.InterfaceDeclaration) => declaration.members.filter(ts.isPropertySignature);
  const database = interfaces.get("Database");
  if (!database) throw new Error("schema.ts declares no Database interface");
  return new Map(
    propertiesOf(database).map((table) => {
      const name = (table.name as ts.Identifier).text;
      const typeName = table.type && ts.isTypeReferenceNode(table.type) ? table.type.typeName.getText(file) : undefined;
      const columns = typeName ? interfaces.get(typeName) : undefined;
      if (!columns) throw new Error(`Database.${name} does not name an interface declared in schema.ts`);
      return [
        snakeCase(name),
        propertiesOf(columns)
          .map((column) => snakeCase((column.name as ts.Identifier).text))
          .sort(),
      ];
    }),
  );
}

/** Columns per ordinary table in a store (virtual tables, their shadow tables and SQLite's own left out). */
function storedTables(store: Store): Map<string, string[]> {
  const tables = (store.sqlite.pragma("table_list") as { schema: string; name: string; type: string }[])
    .filter((table) => table.schema === "main" && table.type === "table" && !table.name.startsWith("sqlite_"))
    .map((table) => table.name);
  return new Map(tables.map((table) => [table, (store.sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name).sort()]));
}

describe("schema.ts against the migrations", () => {
  const temp = makeTempDir();
  let stored: Map<string, string[]>;
  beforeAll(async () => {
    const store = openStore({ dataDir: temp.dir, backgroundCheckpoints: false });
    stored = storedTables(store);
    await store.close();
  });
  afterAll(() => temp.remove());

  it("declares every table the migrations create, with exactly its columns", () => {
    const declared = declaredTables(readFileSync(schemaFile, "utf8"));
    const fromMigrations = new Map([...stored].filter(([table]) => !NOT_IN_KYSELY.includes(table)));
    expect(Object.fromEntries(declared)).toEqual(Object.fromEntries(fromMigrations));
    // The tables kept out of Kysely do exist, so the list above cannot hide a renamed table.
    expect(NOT_IN_KYSELY.filter((table) => !stored.has(table))).toEqual([]);
  });

  it("notices a column added to schema.ts but to no migration, and one missing from schema.ts", () => {
    const source = readFileSync(schemaFile, "utf8");
    const added = declaredTables(source.replace("export interface UsersTable {", "export interface UsersTable {\n  lastSeenAt: string;"));
    expect(added.get("users")).toContain("last_seen_at");
    expect(added.get("users")).not.toEqual(stored.get("users"));
    const missing = declaredTables(source.replace("  passwordHash: string;\n", ""));
    expect(missing.get("users")).not.toContain("password_hash");
    expect(missing.get("users")).not.toEqual(stored.get("users"));
  });
});
