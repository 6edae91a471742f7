import { accessSync, constants, mkdirSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { CamelCasePlugin, Kysely, SqliteDialect, type Compilable } from "kysely";
import * as sqliteVec from "sqlite-vec";
import type { Database } from "./schema.ts";
import { migrate } from "./migrate.ts";
import { prepareQuery, type Argument, type PreparedQuery } from "./prepared-query.ts";
import { withStatementCache } from "./statement-cache.ts";
import { startWalCheckpointer, type WalCheckpointer } from "./wal-checkpointer.ts";

export interface Store {
  engine: "sqlite";
  db: Kysely<Database>;
  /** The raw connection: only the store itself and the search index (modules/retrieval/index) use it. */
  sqlite: BetterSqlite3.Database;
  /** A Kysely-built query run synchronously (see prepared-query.ts). */
  prepare<Row>(build: (argument: Argument) => Compilable<Row>): PreparedQuery<Row>;
  /** Runs `work` in one synchronous transaction; prepared queries inside it commit or roll back together. */
  transaction<T>(work: () => T): T;
  dataDir: string;
  uploadsDir: string;
  vectorExtension: boolean;
  close(): Promise<void>;
}

export class StoreError extends Error {}

const defaultMigrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url));

export function ensureWritableDir(dir: string) {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    const probe = path.join(dir, `.write-probe-${process.pid}`);
    writeFileSync(probe, "ok");
    rmSync(probe);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StoreError(`The data folder ${dir} is not writable (${reason}). Free some space or fix its permissions, or set SAGE_DATA_DIR.`);
  }
}

/** Opens (creating if needed) the SQLite store in `dataDir` and brings its schema up to date. */
export function openStore(options: { dataDir: string; uploadsDir?: string; migrationsDir?: string; backgroundCheckpoints?: boolean }): Store {
  const dataDir = path.resolve(options.dataDir);
  const uploadsDir = path.resolve(options.uploadsDir ?? path.join(dataDir, "uploads"));
  ensureWritableDir(dataDir);
  ensureWritableDir(uploadsDir);

  const sqlite = new BetterSqlite3(path.join(dataDir, "sage.db"));
  try {
    sqlite.pragma("journal_mode = WAL");
    // NORMAL in WAL mode survives a process crash (SIGKILL); only an OS crash can drop the last commits.
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    let vectorExtension = true;
    try {
      sqliteVec.load(sqlite);
    } catch {
      vectorExtension = false;
    }
    migrate(sqlite, options.migrationsDir ?? defaultMigrationsDir);
    let checkpointer: WalCheckpointer | undefined;
    if (options.backgroundCheckpoints) {
      checkpointer = startWalCheckpointer(path.join(dataDir, "sage.db"));
      // A fallback at 40 MB of WAL. Continuous writes (a long ingestion) reach it, since the WAL only restarts when
      // the worker has copied every frame before the next write; the pages are then mostly copied and synced already.
      sqlite.pragma("wal_autocheckpoint = 10000");
    }
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      plugins: [new CamelCasePlugin()],
    });
    return {
      engine: "sqlite",
      db,
      sqlite,
      prepare: (build) => prepareQuery(db, sqlite, build),
      transaction: (work) => sqlite.transaction(work)(),
      dataDir,
      uploadsDir,
      vectorExtension,
      async close() {
        await checkpointer?.stop();
        await db.destroy();
        // Kysely closes the connection only once it has run a query; a store used through `sqlite` alone is closed here.
        if (sqlite.open) sqlite.close();
      },
    };
  } catch (error) {
    sqlite.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`Could not open the store in ${dataDir}: ${(error as Error).message}`);
  }
}
