import { createReadStream } from "node:fs";
import type { FastifyInstance } from "fastify";
import { importPreviewSchema, knowledgeSnapshotListSchema, snapshotRestoreResponseSchema } from "@sage/contracts/backup";
import { idParamsSchema } from "@sage/contracts/common";
import {
  EXPORT_DEFAULT_FILENAME,
  IMPORT_INVALID_FORMAT_MESSAGE,
  IMPORT_INVALID_FORMAT_TITLE,
  IMPORT_MAX_ARCHIVE_BYTES,
  IMPORT_TOO_LARGE_TITLE,
  importResponseSchema,
} from "@sage/contracts/retrieval";
import { AppError, badRequest } from "../../http/app-error.ts";
import { isMultipartRequest, readMultipartForm } from "../../http/multipart-form.ts";
import { mediaResponse, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { BackupService } from "./backup.service.ts";

/** The import form is one zip; the text fields a client may add beside it are read and ignored. */
// The 100 MB maximum leaves out the backup's original files, so the zip itself may be larger (the service checks
// the rest once it can read the zip); this is the ceiling for the whole file.
const IMPORT_FORM_LIMITS = { fields: 20, fieldBytes: 65_536, fileBytes: IMPORT_MAX_ARCHIVE_BYTES };
const invalidFormat = () => badRequest(`${IMPORT_INVALID_FORMAT_TITLE}: ${IMPORT_INVALID_FORMAT_MESSAGE}`, "invalid_file_format");
const attachment = (filename: string) => `attachment; filename="${filename}"`;

export function registerBackupRoutes(app: FastifyInstance, deps: { backup: BackupService }) {
  const { backup } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const zip = (description: string) => ({ 200: mediaResponse("application/zip", description) });

  api.get(
    "/api/export_vector_db",
    { schema: { summary: "Download the knowledge base as a backup zip", response: zip("The backup") } },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header("content-type", "application/zip");
      reply.header("content-disposition", attachment(EXPORT_DEFAULT_FILENAME));
      return reply.send(backup.export(user.id));
    },
  );

  // What an import would replace, for the confirmation the web app shows before it uploads anything.
  api.get(
    "/api/import_vector_db/preview",
    { schema: { summary: "What importing a backup would replace", response: { 200: importPreviewSchema } } },
    async (request) => backup.preview(requireUser(request).id),
  );

  // The body is a multipart form (one .zip), read as a stream by the handler.
  api.post(
    "/api/import_vector_db",
    {
      config: { multipart: true },
      schema: { summary: "Replace the knowledge base with a backup zip (a snapshot is kept)", response: { 200: importResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      if (!isMultipartRequest(request)) throw invalidFormat();
      const tooLarge = () =>
        new AppError(
          "file_too_large",
          413,
          `${IMPORT_TOO_LARGE_TITLE}: the file is over 2 GB, the most a backup with its original files may be; the maximum is 100MB without them.`,
        );
      const form = await readMultipartForm(request, {
        limits: IMPORT_FORM_LIMITS,
        tooLarge,
        // The zip reaches the import only once the whole form has arrived intact (readMultipartForm holds its end back).
        onFile: async (file) => {
          if (!/\.zip$/i.test(file.filename)) {
            file.stream.resume();
            throw invalidFormat();
          }
          return backup.importZip(user.id, file.stream, () => false, tooLarge);
        },
      });
      if (!form.file) throw invalidFormat();
      return form.file;
    },
  );

  api.get(
    "/api/knowledge/snapshots",
    { schema: { summary: "The knowledge base's snapshots, newest first", response: { 200: knowledgeSnapshotListSchema } } },
    async (request) => {
      const user = requireUser(request);
      return (await backup.listSnapshots(user.id)).map(({ id, reason, createdAt, files, links, notes, folders, bytes }) => ({
        id,
        reason,
        createdAt,
        files,
        links,
        notes,
        folders,
        bytes,
      }));
    },
  );

  api.post(
    "/api/knowledge/snapshots/:id/restore",
    {
      schema: {
        summary: "Put a snapshot back (the knowledge base as it is now is kept as a snapshot first)",
        params: idParamsSchema,
        response: { 200: snapshotRestoreResponseSchema },
      },
    },
    async (request) => backup.restoreSnapshot(requireUser(request).id, request.params.id),
  );

  api.get(
    "/api/knowledge/snapshots/:id/download",
    { schema: { summary: "Download a snapshot as a backup zip", params: idParamsSchema, response: zip("The snapshot") } },
    async (request, reply) => {
      const user = requireUser(request);
      const snapshot = await backup.snapshotFile(user.id, request.params.id);
      const day = snapshot.createdAt.slice(0, 19).replace(/[T:]/g, "-");
      reply.header("content-type", "application/zip");
      reply.header("content-disposition", attachment(`knowledge_snapshot_${day}.zip`));
      return reply.send(createReadStream(snapshot.path));
    },
  );
}
