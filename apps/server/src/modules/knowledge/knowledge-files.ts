import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

/** One entry of a knowledge base folder, as listFolder answers it. */
export interface FolderEntry {
  id: number;
  name: string;
  type: string;
  path: string;
}

/**
 * The user's knowledge base by folder and by name, for the assistant's listFolder and readFile (issue 47's workspace
 * tools): the system knowledge base only (not a conversation's files), never another user's, never a deleted one's.
 */
export function createKnowledgeFiles(db: Kysely<Database>) {
  const base = (userId: number) =>
    db.selectFrom("knowledgeItems").select(["id", "name", "type", "path"]).where("userId", "=", userId).where("conversationId", "is", null);
  return {
    /** The entries of a folder by its path ('' or '/' for the top), folders first; null when there is no such folder. */
    async list(userId: number, path: string, limit: number): Promise<{ entries: FolderEntry[]; more: boolean } | null> {
      const clean = path.trim().replace(/^\/+|\/+$/g, "");
      let parentId: number | null = null;
      if (clean !== "") {
        const folder = await base(userId).where("type", "=", "folder").where("path", "=", clean).executeTakeFirst();
        if (!folder) return null;
        parentId = folder.id;
      }
      const rows = await base(userId)
        .where((eb) => (parentId === null ? eb("parentId", "is", null) : eb("parentId", "=", parentId)))
        .where((eb) => eb.or([eb("type", "=", "folder"), eb("status", "=", "ready")]))
        .orderBy("type", "desc")
        .orderBy("name")
        .limit(limit + 1)
        .execute();
      return { entries: rows.slice(0, limit), more: rows.length > limit };
    },

    /** A ready file or note by its name (or its path), case aside; the newest when several share it; with its size in bytes. */
    async byName(userId: number, name: string): Promise<(FolderEntry & { size: number }) | undefined> {
      const clean = name.trim().replace(/^\/+/, "").toLowerCase();
      if (!clean) return undefined;
      return base(userId)
        .select("size")
        .where("type", "!=", "folder")
        .where("status", "=", "ready")
        .where((eb) => eb.or([eb(eb.fn("lower", ["name"]), "=", clean), eb(eb.fn("lower", ["path"]), "=", clean)]))
        .orderBy("id", "desc")
        .executeTakeFirst();
    },
  };
}

export type KnowledgeFiles = ReturnType<typeof createKnowledgeFiles>;
