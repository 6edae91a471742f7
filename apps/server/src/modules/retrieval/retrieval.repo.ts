import type BetterSqlite3 from "better-sqlite3";

export interface ChunkDetails {
  chunkId: number;
  itemId: number;
  content: string;
  source: string;
  filename: string;
  itemType: string;
  mimeType: string | null;
}

/** SQL the retrieval module runs outside the FTS and vector indexes. */
export function createRetrievalRepo(sqlite: BetterSqlite3.Database) {
  const conversationOwner = sqlite.prepare("SELECT user_id AS userId FROM conversations WHERE id = ?");
  const detailStatements = new Map<number, BetterSqlite3.Statement>();

  return {
    /** True when the conversation exists and belongs to the user. */
    ownsConversation(userId: number, conversationId: number): boolean {
      const row = conversationOwner.get(conversationId) as { userId: number } | undefined;
      return row?.userId === userId;
    },

    /** Chunk texts and their file names, in the order of the ids given. */
    chunkDetails(chunkIds: number[]): ChunkDetails[] {
      if (chunkIds.length === 0) return [];
      let statement = detailStatements.get(chunkIds.length);
      if (!statement) {
        statement = sqlite.prepare(
          `SELECT c.id AS chunkId, c.item_id AS itemId, c.content, c.source, ki.name AS filename,
                  ki.type AS itemType, ki.mime_type AS mimeType
           FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
           WHERE c.id IN (${chunkIds.map(() => "?").join(",")})`,
        );
        if (detailStatements.size < 64) detailStatements.set(chunkIds.length, statement);
      }
      const byId = new Map((statement.all(...chunkIds) as ChunkDetails[]).map((row) => [row.chunkId, row]));
      return chunkIds.flatMap((id) => byId.get(id) ?? []);
    },
  };
}

export type RetrievalRepo = ReturnType<typeof createRetrievalRepo>;
