import type { FastifyInstance } from "fastify";
import {
  EXPORT_DEFAULT_FILENAME,
  IMPORT_INVALID_FORMAT_MESSAGE,
  IMPORT_INVALID_FORMAT_TITLE,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_TITLE,
} from "@sage/contracts/retrieval";
import { AppError, badRequest } from "../../http/app-error.ts";
import { isMultipartRequest, readMultipartForm } from "../../http/multipart-form.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { BackupService } from "./backup.service.ts";

/** The import form is one zip; the text fields a client may add beside it are read and ignored. */
const IMPORT_FORM_LIMITS = { fields: 20, fieldBytes: 65_536, fileBytes: IMPORT_MAX_BYTES };
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
    if (!isMultipartRequest(request)) throw invalidFormat();
    const tooLarge = () => new AppError("file_too_large", 413, `${IMPORT_TOO_LARGE_TITLE}: the file is over ${megabytes(IMPORT_MAX_BYTES)}; the maximum is 100MB.`);
    const form = await readMultipartForm(request, {
      limits: IMPORT_FORM_LIMITS,
      tooLarge,
      // The zip reaches the import only once the whole form has arrived intact (readMultipartForm holds its end back).
      onFile: async (file) => {
        if (!/\.zip$/i.test(file.filename)) {
          file.stream.resume();
          throw invalidFormat();
        }
        return deps.backup.importZip(user.id, file.stream, () => false, tooLarge);
      },
    });
    if (!form.file) throw invalidFormat();
    return form.file;
  });
}
