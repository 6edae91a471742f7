import type BetterSqlite3 from "better-sqlite3";
import type { Compilable, Kysely } from "kysely";
import type { Database } from "./schema.ts";

/** Stands for the index-th argument of a prepared query while Kysely builds it. */
export type Argument = <T>(index: number) => T;

export interface PreparedQuery<Row> {
  all(...args: unknown[]): Row[];
  get(...args: unknown[]): Row | undefined;
  run(...args: unknown[]): BetterSqlite3.RunResult;
}

const MARKER = "\u0000argument:";
const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A query built with Kysely once and then run synchronously by better-sqlite3. Hot paths (every chat turn
 * appends messages) and statements that must run inside one synchronous transaction use this; everything else
 * awaits Kysely as usual. Arguments are bound by position at run time; rows come back camelCased, as Kysely's
 * CamelCasePlugin would return them.
 */
export function prepareQuery<Row>(db: Kysely<Database>, sqlite: BetterSqlite3.Database, build: (argument: Argument) => Compilable<Row>): PreparedQuery<Row> {
  const compiled = build(<T>(index: number) => `${MARKER}${index}` as T).compile();
  const statement = sqlite.prepare(compiled.sql);
  const binding = compiled.parameters.map((value) =>
    typeof value === "string" && value.startsWith(MARKER) ? { argument: Number(value.slice(MARKER.length)), value: undefined } : { argument: undefined, value },
  );
  const bind = (args: unknown[]) => binding.map((slot) => (slot.argument === undefined ? slot.value : args[slot.argument]));
  if (!statement.reader) {
    return {
      all: () => {
        throw new Error("prepareQuery: this statement returns no rows");
      },
      get: () => undefined,
      run: (...args) => statement.run(...bind(args)),
    };
  }
  const keys = statement.columns().map((column) => camelCase(column.name));
  statement.raw(true);
  const toRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < keys.length; index++) row[keys[index]!] = values[index];
    return row as Row;
  };
  return {
    all: (...args) => (statement.all(...bind(args)) as unknown[][]).map(toRow),
    get: (...args) => {
      const values = statement.get(...bind(args)) as unknown[] | undefined;
      return values === undefined ? undefined : toRow(values);
    },
    run: (...args) => statement.run(...bind(args)),
  };
}
