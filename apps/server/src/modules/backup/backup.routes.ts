import type { FastifyInstance } from "fastify";
import {
  EXPORT_DEFAULT_FILENAME,
  IMPORT_INVALID_FORMAT_MESSAGE,
  IMPORT_INVALID_FORMAT_TITLE,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_TITLE,
} from "@sage/contracts/retrieval";
import { AppError, badRequest } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { BackupService } from "./backup.service.ts";

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const invalidFormat = () => badRequest(`${IMPORT_INVALID_FORMAT_TITLE}: ${IMPORT_INVALID_FORMAT_MESSAGE}`, "invalid_file_format");

export function registerBackupRoutes(app: FastifyInstance, deps: { backup: BackupService }) {
  app.get("/api/export_vector_db", async (request, reply) => {
    const user = requireUser(request);
    reply.header("content-type", "application/zip");
    reply.header("content-disposition", `attachment; filename="${EXPORT_DEFAULT_FILENAME}"`);
    return reply.send(await deps.backup.export(user.id));
  });

  app.post("/api/import_vector_db", async (request) => {
    const user = requireUser(request);
    if (!request.isMultipart()) throw invalidFormat();
    const file = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    if (!file) throw invalidFormat();
    if (!/\.zip$/i.test(file.filename)) {
      file.file.resume();
      throw invalidFormat();
    }
    return deps.backup.importZip(
      user.id,
      file.file,
      () => file.file.truncated,
      () => new AppError("file_too_large", 413, `${IMPORT_TOO_LARGE_TITLE}: the file is over ${megabytes(IMPORT_MAX_BYTES)}; the maximum is 100MB.`),
    );
  });
}
