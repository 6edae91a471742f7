import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import {
  createFileRequestSchema,
  createFolderRequestSchema,
  fileDownloadQuerySchema,
  listFilesQuerySchema,
  listFoldersQuerySchema,
  opensInBrowser,
  processNoteRequestSchema,
  processUrlRequestSchema,
  updateFileRequestSchema,
  uploadFieldsSchema,
} from "@sage/contracts/knowledge";
import { badRequest } from "../../http/app-error.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import { isMultipartRequest, readMultipartForm } from "../../http/multipart-form.ts";
import { USER_ID_FIELDS, assertOwnUserId, requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { AddKnowledgeService, UploadOutcome, UrlOutcome } from "./add-knowledge.service.ts";
import type { KnowledgeService } from "./knowledge.service.ts";

/**
 * A file opened in the browser runs nothing and loads nothing but itself (object-src for the browser's PDF viewer),
 * and cannot be framed.
 */
const DOWNLOAD_POLICY =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The upload form: a file and at most five text fields (userId, conversationId, parentId, path, description), with room to spare. */
const UPLOAD_FORM_LIMITS = { fields: 20, fieldBytes: 65_536 };

/** The upload reply the web app reads: `status`, `processingResult` (with `error`) and `chunks_processed`. */
function uploadReply(outcome: UploadOutcome): { status: number; body: object } {
  const { file } = outcome;
  switch (outcome.kind) {
    case "duplicate":
      return { status: 200, body: { status: "duplicate", file, chunks_processed: file.chunkCount, processingResult: { status: "duplicate" } } };
    case "ready":
      return { status: 200, body: { status: "success", file, chunks_processed: file.chunkCount, processingResult: { status: "success" } } };
    case "not-processed":
      return { status: 200, body: { status: "stored", file, chunks_processed: 0, processingResult: { status: file.status, error: outcome.reason } } };
    case "in-background":
      return { status: 202, body: { status: "processing_in_background", file, chunks_processed: 0, processingResult: { status: "queued" } } };
    case "archive":
      return { status: 200, body: { status: "success", file, chunks_processed: 0, processingResult: { status: "unpacked" }, archive: outcome.archive } };
  }
}

/** A link that could not be read answers 422 with the reason (the entry stays as a reference); 202 while it continues. */
function urlReply(outcome: UrlOutcome): { status: number; body: object } {
  const url_info = outcome.urlInfo;
  switch (outcome.kind) {
    case "ready":
      return { status: 200, body: { status: "success", url_info, chunks_processed: outcome.chunkCount } };
    case "failed":
      return { status: 422, body: { status: "failed", url_info, chunks_processed: 0, error: outcome.reason } };
    case "in-background":
      return { status: 202, body: { status: "processing_in_background", url_info, chunks_processed: 0 } };
  }
}

export function registerKnowledgeRoutes(app: FastifyInstance, deps: { knowledge: KnowledgeService; addKnowledge: AddKnowledgeService }) {
  const { knowledge, addKnowledge } = deps;

  // The web app checks that the file routes answer before it lists files.
  app.get("/api/debug/routes-test", async () => ({ status: "success" as const }));

  app.get("/api/files", async (request, reply) => {
    const user = requireUser(request);
    const query = parseInput(listFilesQuerySchema, request.query, "query");
    return reply
      .header("content-type", "application/json; charset=utf-8")
      .send(knowledge.list(user.id, { conversationId: query.conversationId, parentId: query.parentId }));
  });

  app.get("/api/folders", async (request) => {
    const user = requireUser(request);
    parseInput(listFoldersQuerySchema, request.query, "query");
    return knowledge.folderTree(user.id);
  });

  app.post("/api/folders", async (request, reply) => {
    const user = requireUser(request);
    const body = parseInput(createFolderRequestSchema, request.body, "body");
    return reply.status(201).send(await knowledge.createFolder(user.id, body));
  });

  app.post("/api/files", async (request, reply) => {
    const user = requireUser(request);
    const body = parseInput(createFileRequestSchema, request.body, "body");
    return reply.status(201).send(await knowledge.createEntry(user.id, body));
  });

  // One item, for the chat's citations (a cited passage opens its file's preview).
  app.get("/api/files/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return knowledge.get(user.id, id);
  });

  // The item's text by page, slide or sheet, for its preview (issue 33 item 4).
  app.get("/api/files/:id/text", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return knowledge.text(user.id, id);
  });

  app.patch("/api/files/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    const body = parseInput(updateFileRequestSchema, request.body, "body");
    return knowledge.update(user.id, id, body);
  });

  app.delete("/api/files/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return { ok: true as const, deleted: await knowledge.remove(user.id, id) };
  });

  app.post("/api/files/:id/retry", async (request, reply) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return reply.status(202).send(await knowledge.retry(user.id, id));
  });

  app.get("/api/files/:id/download", async (request, reply) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    const { inline } = parseInput(fileDownloadQuerySchema, request.query, "query");
    const file = await knowledge.download(user.id, id);
    // Open: only kinds a browser shows safely, and any text as plain text, so an uploaded page never runs here.
    const open = inline === "1" && opensInBrowser(file.filename);
    const contentType = open && file.contentType.startsWith("text/") ? "text/plain; charset=utf-8" : file.contentType;
    return reply
      .header("content-type", contentType)
      .header("content-disposition", contentDisposition(file.filename, open ? "inline" : "attachment"))
      .header("content-security-policy", DOWNLOAD_POLICY)
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "private, no-store")
      .send(file.body);
  });

  app.get("/api/conversations/:id/files", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return knowledge.conversationFiles(user.id, id);
  });

  app.post("/api/upload", { config: { multipart: true } }, async (request, reply) => {
    const user = requireUser(request);
    if (!isMultipartRequest(request)) throw badRequest("Send the file as multipart/form-data");
    const form = await readMultipartForm(request, {
      limits: { ...UPLOAD_FORM_LIMITS, fileBytes: addKnowledge.maxUploadBytes },
      fileField: "file",
      tooLarge: addKnowledge.fileTooLarge,
      onFile: (file) => addKnowledge.storeUpload(file.filename, file.mimeType, file.stream),
    });
    const stored = form.file;
    try {
      if (!stored) throw badRequest("No file was sent (expected a multipart field named file)");
      // The session guard cannot see multipart fields, so the userId check is repeated here (every value sent).
      assertOwnUserId(
        user,
        USER_ID_FIELDS.flatMap((name) => form.fields.get(name) ?? []),
      );
      const input = parseInput(uploadFieldsSchema, Object.fromEntries([...form.fields].map(([name, values]) => [name, values.at(-1)])), "form");
      const { status, body } = uploadReply(await addKnowledge.finishUpload(user.id, stored, input));
      return reply.status(status).send(body);
    } catch (error) {
      // Nothing is registered when the upload fails, so its bytes must not stay behind.
      await addKnowledge.discardUpload(stored);
      throw error;
    }
  });

  app.post("/api/process_url", async (request, reply) => {
    const user = requireUser(request);
    const input = parseInput(processUrlRequestSchema, request.body, "body");
    const { status, body } = urlReply(await addKnowledge.processUrl(user.id, input));
    return reply.status(status).send(body);
  });

  app.post("/api/process-note", async (request) => {
    const user = requireUser(request);
    const body = parseInput(processNoteRequestSchema, request.body, "body");
    return addKnowledge.processNote(user.id, body);
  });
}
