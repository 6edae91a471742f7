import type { backupClient } from "./backup-client.ts";

/** Issue 36's file: 2.6 MB of one log line, repeated; it deflates by about 290:1, and it is an honest document. */
export const REPETITIVE_LOG = Buffer.from("2026-03-01 12:00:00 INFO heartbeat from the board-room display: all systems nominal\n".repeat(31_500));

/** What a user sees of their knowledge base (items by path), and each file's bytes: equal before and after a restore. */
export async function knowledgeView(backup: ReturnType<typeof backupClient>) {
  const items = await backup.files();
  const bytes: Record<string, string> = {};
  for (const item of items.filter((entry) => entry.type === "file")) {
    bytes[item.path] = (await backup.call("GET", `/api/files/${item.id}/download`)).rawPayload.toString("base64");
  }
  const seen = items.map(({ name, path, type, status, chunkCount, content }) => ({ name, path, type, status, chunkCount, content }));
  return { items: seen.sort((a, b) => a.path.localeCompare(b.path)), bytes };
}
