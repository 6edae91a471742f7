import type BetterSqlite3 from "better-sqlite3";

/**
 * bm25() divides by FTS5's own row count and average lengths (the "averages" record, id 1 of <table>_data).
 * A contentless_delete table never takes deleted rows out of them, so every delete, re-ingest and rename
 * (which re-inserts an item's rows) inflates them: after enough churn idf drifts and scores creep past the
 * calibration. The truth is in <table>_docsize (one row per live document with its column sizes), so the
 * record is rewritten from it when it has drifted. `table` is one user's FTS5 table (lexical-index.ts).
 */
export function createFtsTotals(sqlite: BetterSqlite3.Database, table: string) {
  const hasDocsize = Boolean(sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(`${table}_docsize`));
  if (!hasDocsize) return { drift: () => 0, repair: () => false };
  const averages = sqlite.prepare(`SELECT block FROM ${table}_data WHERE id = 1`);
  const liveCount = sqlite.prepare(`SELECT count(*) AS n FROM ${table}_docsize`);
  const sizes = sqlite.prepare(`SELECT sz FROM ${table}_docsize`);

  function recorded(): number[] {
    const row = averages.get() as { block: Buffer } | undefined;
    return row ? readVarints(row.block) : [];
  }

  return {
    /** Rows FTS5 believes it holds beyond the live ones (0 when in step); `live` saves counting them again. */
    drift(live?: number): number {
      const [rows = 0] = recorded();
      return rows - (live ?? (liveCount.get() as { n: number }).n);
    },

    /** Rewrites the record from the live documents' sizes; false when it was already right. */
    repair(): boolean {
      // better-sqlite3 opens in SQLite's defensive mode, which forbids writing shadow tables; lifted for this write only.
      sqlite.unsafeMode(true);
      try {
        return rewrite();
      } finally {
        sqlite.unsafeMode(false);
      }
    },
  };

  function rewrite(): boolean {
    return sqlite.transaction(() => {
      const current = recorded();
      if (current.length === 0) return false;
      const totals = new Array<number>(current.length).fill(0);
      for (const row of sizes.iterate() as Iterable<{ sz: Buffer }>) {
        const columns = readVarints(row.sz);
        totals[0]! += 1;
        for (let column = 0; column < columns.length && column + 1 < totals.length; column++) totals[column + 1]! += columns[column]!;
      }
      if (totals.every((value, index) => value === current[index])) return false;
      // Prepared here: SQLite checks the shadow-table write when it compiles the statement.
      sqlite.prepare(`UPDATE ${table}_data SET block = ? WHERE id = 1`).run(writeVarints(totals));
      return true;
    })();
  }
}

export type FtsTotals = ReturnType<typeof createFtsTotals>;

/** SQLite's varint: 7 bits a byte, high bit = more, big-endian; the 9th byte carries 8 bits. */
export function readVarints(buffer: Buffer): number[] {
  const out: number[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    let value = 0;
    for (let index = 0; ; index++) {
      const byte = buffer[offset++]!;
      if (index === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80) || offset >= buffer.length) break;
    }
    out.push(value);
  }
  return out;
}

export function writeVarints(values: number[]): Buffer {
  const bytes: number[] = [];
  for (const value of values) {
    const groups: number[] = [];
    let rest = value;
    do {
      groups.unshift(rest % 128);
      rest = Math.floor(rest / 128);
    } while (rest > 0);
    // Counts here stay far below 2^56, so the 9-byte form is never needed.
    groups.forEach((group, index) => bytes.push(index < groups.length - 1 ? group | 0x80 : group));
  }
  return Buffer.from(bytes);
}
