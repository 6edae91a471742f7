import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { POSTGRES_MISSING, postgresInstalled } from "@sage/testkit/postgres-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import type { Kysely } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp } from "../../test/test-app.ts";
import { postgresTestDatabases } from "../../test/test-databases.ts";
import { openStore } from "../open-store.ts";
import { copySqliteToPostgres, noInstallationMessage, NOT_EMPTY_MESSAGE } from "./copy-to-postgres.ts";
import { openPostgresDb } from "./open-postgres-db.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

/** Every row of a table, in an order both engines agree on (their own orders may differ). */
async function rowsOf(db: Kysely<unknown>, table: string): Promise<string[]> {
  const rows = await (db as Kysely<Record<string, Record<string, unknown>>>).selectFrom(table).selectAll().execute();
  return rows.map((row) => JSON.stringify(row)).sort();
}

describe.skipIf(!installed)("copying a SQLite installation into PostgreSQL (sage-admin migrate)", () => {
  const databases = postgresTestDatabases();
  afterAll(() => databases.stop());

  it("copies every table row for row and every stored file byte for byte, and new rows go on after the copied ids", async () => {
    const data = makeTempDir("sage-source-");
    const files = makeTempDir("sage-files-");
    try {
      const t = await createTestApp({ env: { SAGE_DATA_DIR: data.dir } });
      const kb = knowledgeClient(t, await t.login());
      const folder = await kb.folder("Board");
      const minutes = Buffer.from("Board minutes: the budget for the Lisbon office was approved.\n");
      const file = (await kb.upload({ parentId: folder.id }, { filename: "minutes.txt", content: minutes, type: "text/plain" })).json().file;
      expect((await kb.chunks(file.id)).length).toBeGreaterThan(0);
      const at = new Date().toISOString();
      const conversation = await t.store.db
        .insertInto("conversations")
        .values({ userId: 3, name: "Lisbon", createdAt: at, updatedAt: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      await t.store.db.insertInto("messages").values({ conversationId: conversation.id, role: "user", content: "When do we open?", createdAt: at }).execute();
      // A vector as the retrieval module stores it (float32 bytes), which the copy must keep bit for bit.
      const chunkId = (t.store.sqlite.prepare("SELECT id FROM chunks WHERE item_id = ? LIMIT 1").get(file.id) as { id: number }).id;
      t.store.sqlite
        .prepare(
          "INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at) VALUES (?, 'test:4', 4, 3, NULL, ?, ?)",
        )
        .run(chunkId, Buffer.from(Float32Array.of(0.1, -0.2, 0.3, 1 / 3).buffer), at);
      await t.close();

      const { url } = await databases.open();
      const copied: string[] = [];
      const report = await copySqliteToPostgres({ dataDir: data.dir, url: url!, filesDir: files.dir, onTable: (name) => copied.push(name) });
      expect(report.files).toMatchObject({ count: 1, bytes: minutes.length });
      expect(readFileSync(path.join(files.dir, readdirSync(files.dir)[0]!)).equals(minutes)).toBe(true);
      const rowsIn = (name: string) => report.tables.find((table) => table.name === name)?.rows;
      expect(rowsIn("users")).toBe(1);
      expect(rowsIn("knowledge_items")).toBe(2);
      expect(rowsIn("chunks")).toBeGreaterThan(0);
      expect(rowsIn("messages")).toBe(1);
      expect(rowsIn("chunk_vectors")).toBe(1);
      expect(copied).toEqual(report.tables.map((table) => table.name));

      const source = openStore({ dataDir: data.dir });
      const target = await openPostgresDb({ url: url! });
      try {
        for (const { name } of report.tables) {
          const camel = name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
          expect(await rowsOf(target.db as Kysely<unknown>, camel), name).toEqual(await rowsOf(source.db as Kysely<unknown>, camel));
        }
        // Identity counters moved past the copied ids: the next account and item are numbered after them.
        const next = await target.db
          .insertInto("users")
          .values({ username: "newcomer", passwordHash: "x", createdAt: at })
          .returning("id")
          .executeTakeFirstOrThrow();
        expect(next.id).toBe(4);
        const item = await target.db
          .insertInto("knowledgeItems")
          .values({ userId: 3, name: "After", type: "note", createdAt: at, updatedAt: at })
          .returning("id")
          .executeTakeFirstOrThrow();
        expect(item.id).toBeGreaterThan(file.id);
      } finally {
        await target.close();
        await source.close();
      }

      // Copying again would mix two installations: refused, and nothing changes.
      await expect(copySqliteToPostgres({ dataDir: data.dir, url: url!, filesDir: files.dir })).rejects.toThrow(NOT_EMPTY_MESSAGE);
      const after = await openPostgresDb({ url: url! });
      expect(await after.db.selectFrom("users").select("username").orderBy("id").execute()).toEqual([{ username: "demo" }, { username: "newcomer" }]);
      await after.close();
    } finally {
      data.remove();
      files.remove();
    }
  });

  it("runs from the command line, saying each table's count, and refuses a target that is not PostgreSQL", async () => {
    const data = makeTempDir("sage-source-");
    try {
      const t = await createTestApp({ env: { SAGE_DATA_DIR: data.dir } });
      const kb = knowledgeClient(t, await t.login());
      const file = (await kb.upload({}, { filename: "lisbon.txt", content: Buffer.from("The Lisbon office opens in May.\n"), type: "text/plain" })).json().file;
      await t.close();
      const { url } = await databases.open();
      const cli = fileURLToPath(new URL("../../cli.ts", import.meta.url));
      const run = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", cli, "migrate", ...args], { encoding: "utf8" });
      const refused = run("--from", data.dir, "--to", "mysql://somewhere/sage");
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("sage-admin migrate --from <data folder> --to <postgres://...>");
      const done = run("--from", data.dir, "--to", url!, "--files", path.join(data.dir, "uploads"));
      expect(done.stderr).toBe("");
      expect(done.status).toBe(0);
      expect(done.stdout).toContain("users: 1 rows");
      expect(done.stdout).toContain("Copied.");
      // Search answers on PostgreSQL at once: the copy filled its lexical index (pg-lexical-index.ts) with the passage.
      expect(done.stdout).toContain("search index: 1 passages");
      const pool = new pg.Pool({ connectionString: url! });
      try {
        const { rows } = await pool.query("SELECT c.item_id AS item FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id");
        expect(rows.map((row) => Number(row.item))).toEqual([file.id]);
      } finally {
        await pool.end();
      }
    } finally {
      data.remove();
    }
  });

  it("refuses a folder that holds no installation instead of copying an empty one", async () => {
    const empty = makeTempDir("sage-not-data-");
    try {
      const { url } = await databases.open();
      await expect(copySqliteToPostgres({ dataDir: path.join(empty.dir, "typo"), url: url! })).rejects.toThrow(
        noInstallationMessage(path.join(empty.dir, "typo")),
      );
      expect(readdirSync(empty.dir)).toEqual([]);
    } finally {
      empty.remove();
    }
  });
});
