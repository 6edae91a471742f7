import { sql } from "kysely";
import type { TestApp } from "./test-app.ts";

/** A multipart/form-data body as a browser would send it: text fields, then one file part. */
export function multipartBody(fields: Record<string, string | number>, file?: { filename: string; content: Buffer; type?: string }) {
  const boundary = `----sage${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      file.content,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

export function knowledgeClient(t: TestApp, cookie: string) {
  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    call,
    folder: async (name: string, parentId = 0) => {
      const response = await call("POST", "/api/folders", { name, type: "folder", userId: 3, conversationId: 0, parentId, path: "" });
      if (response.statusCode !== 201) throw new Error(`folder: ${response.statusCode} ${response.body}`);
      return response.json() as { id: number; path: string };
    },
    upload: (fields: Record<string, string | number>, file: { filename: string; content: Buffer; type?: string }) => {
      const body = multipartBody(fields, file);
      return t.app.inject({ method: "POST", url: "/api/upload", headers: { cookie, ...body.headers }, payload: body.payload });
    },
    /** The item's chunks as the search index stored them, on either engine. */
    chunks: async (itemId: number) =>
      (
        await sql<{ position: number; source: string; content: string; conversationId: number | null }>`
          SELECT position, source, content, conversation_id FROM chunks WHERE item_id = ${itemId} ORDER BY position`.execute(t.store.db)
      ).rows.map((row) => ({ ...row, position: Number(row.position), conversationId: row.conversationId === null ? null : Number(row.conversationId) })),
  };
}
