import { cpSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { migrate } from "../../store/migrate.ts";
import { messageTree } from "./message-tree.ts";

const node = (id: number, parentId: number | null, branchRank: number) => ({ id, parentId, branchRank });

describe("messageTree", () => {
  // 1 > 2 ; 1 > 3 (regenerated) > 4 ; 5 (edit of 1) > 6
  const tree = messageTree([node(1, null, 1), node(2, 1, 2), node(3, 1, 5), node(4, 3, 6), node(5, null, 7), node(6, 5, 8)]);

  it("shows the path ending at the highest rank", () => {
    expect(tree.activePath().map((each) => each.id)).toEqual([5, 6]);
  });

  it("lists a message's branches oldest first, first messages included", () => {
    expect(tree.siblingsOf(3).map((each) => each.id)).toEqual([2, 3]);
    expect(tree.siblingsOf(5).map((each) => each.id)).toEqual([1, 5]);
    expect(tree.siblingsOf(6).map((each) => each.id)).toEqual([6]);
  });

  it("steps down a branch along what was shown there last", () => {
    expect(tree.descent(1).map((each) => each.id)).toEqual([1, 3, 4]);
    expect(tree.pathTo(4).map((each) => each.id)).toEqual([1, 3, 4]);
  });
});

describe("migration 1000", () => {
  it("makes each existing conversation one path, its last message the end", () => {
    const temp = makeTempDir("branches-migration-");
    try {
      const source = fileURLToPath(new URL("../../store/migrations/", import.meta.url));
      const before = path.join(temp.dir, "before");
      cpSync(source, before, { recursive: true, filter: (file) => !path.basename(file).startsWith("1000-") });
      const db = new Database(":memory:");
      migrate(db, before);
      db.exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'a', 'x', 'now');
        INSERT INTO conversations (id, user_id, name, created_at, updated_at) VALUES (1, 1, 'A', 'now', 'now'), (2, 1, 'B', 'now', 'now');
        INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES
          (1, 1, 'user', 'q1', 'now'), (2, 2, 'user', 'other', 'now'), (3, 1, 'model', 'a1', 'now'), (4, 1, 'user', 'q2', 'now');`);
      expect(migrate(db, source)).toEqual(["1000-message-branches.sql"]);
      const rows = db.prepare("SELECT id, parent_id AS parentId, branch_rank AS branchRank FROM messages WHERE conversation_id = 1 ORDER BY id").all() as any[];
      expect(rows).toEqual([node(1, null, 1), node(3, 1, 3), node(4, 3, 4)]);
      expect(
        messageTree(rows)
          .activePath()
          .map((each) => each.id),
      ).toEqual([1, 3, 4]);
      db.close();
    } finally {
      temp.remove();
    }
  });
});
