import { multipartBody } from "./knowledge-client.ts";
import type { TestApp } from "./test-app.ts";

/** Export Vector DB, Import Vector DB and plain JSON calls, as the logged-in user. */
export function backupClient(t: TestApp, cookie: string) {
  const call = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  return {
    call,
    async exportZip(): Promise<Buffer> {
      const response = await call("GET", "/api/export_vector_db");
      if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode} ${response.body}`);
      return response.rawPayload;
    },
    importZip(archive: Buffer, filename = "vector_db_backup.zip") {
      const body = multipartBody({}, { filename, content: archive, type: "application/zip" });
      return t.app.inject({ method: "POST", url: "/api/import_vector_db", headers: { cookie, ...body.headers }, payload: body.payload });
    },
    /** GET /api/files */
    async files(): Promise<
      Array<{ id: number; name: string; type: string; path: string; parentId: number; status: string; content: string; chunkCount: number }>
    > {
      return (await call("GET", "/api/files")).json();
    },
  };
}
