import path from "node:path";
import type { Kysely } from "kysely";
import { ensureWritableDir, openStore, StoreError, type Store } from "./open-store.ts";
import { openPostgresDb } from "./postgres/open-postgres-db.ts";
import { openPgSignals, type Signals } from "./postgres/pg-signals.ts";
import type { SqlPool } from "./postgres/pg-vector-index.ts";
import type { Database } from "./schema.ts";

/** SAGE on a PostgreSQL database that several SAGE processes may share (decisions 051-060). */
export interface PostgresStore {
  engine: "postgres";
  db: Kysely<Database>;
  /** The same pool, for the search index's own SQL. */
  sql: SqlPool;
  /** What one process did that others wait for (an approval answered, a note stored). */
  signals: Signals;
  /** This process's own folder (temporary files, snapshots, the vector-free fallbacks' nothing): never shared. */
  dataDir: string;
  /** Uploaded files: a folder every process reads (SAGE_FILES_DIR, decision 054). */
  uploadsDir: string;
  close(): Promise<void>;
}

/** The store the server runs on: SQLite in the data folder (the default), or PostgreSQL when a URL is set. */
export type AppStore = Store | PostgresStore;

/** A connection string shown without its password (in errors and the start-up line). */
export const withoutPassword = (url: string) => url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");

/** Opens the store `config` names: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`. */
export async function openAppStore(options: {
  dataDir: string;
  uploadsDir: string;
  databaseUrl: string | null;
  backgroundCheckpoints?: boolean;
}): Promise<AppStore> {
  if (!options.databaseUrl) return openStore(options);
  const dataDir = path.resolve(options.dataDir);
  const uploadsDir = path.resolve(options.uploadsDir);
  ensureWritableDir(dataDir);
  ensureWritableDir(uploadsDir);
  let opened;
  try {
    opened = await openPostgresDb({ url: options.databaseUrl });
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new StoreError(`Could not open the PostgreSQL database at ${withoutPassword(options.databaseUrl)} (${reason}).`);
  }
  try {
    const signals = await openPgSignals(options.databaseUrl);
    return {
      engine: "postgres",
      db: opened.db,
      sql: opened.sql,
      signals,
      dataDir,
      uploadsDir,
      async close() {
        await signals.close();
        await opened.close();
      },
    };
  } catch (error) {
    await opened.close();
    throw new StoreError(`Could not listen on the PostgreSQL database at ${withoutPassword(options.databaseUrl)} (${(error as Error).message}).`);
  }
}
