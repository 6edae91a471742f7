import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import {
  createFileRequestSchema,
  createFolderRequestSchema,
  fileDownloadQuerySchema,
  listFilesQuerySchema,
  listFoldersQuerySchema,
  opensInBrowser,
  itemTextResponseSchema,
  knowledgeItemListSchema,
  knowledgeItemSchema,
  processNoteRequestSchema,
  processNoteResponseSchema,
  processUrlRequestSchema,
  processUrlResponseSchema,
  routesTestResponseSchema,
  updateFileRequestSchema,
  uploadFieldsSchema,
  uploadResponseSchema,
  type ProcessUrlResponse,
  type UploadResponse,
} from "@sage/contracts/knowledge";
import { errorResponseSchema } from "@sage/contracts/errors";
import { z } from "zod";
import { badRequest } from "../../http/app-error.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import { isMultipartRequest, readMultipartForm } from "../../http/multipart-form.ts";
import { mediaResponse, type ZodTypeProvider } from "../../http/route-contracts.ts";
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

// An item holds its folder's items: a recursive schema is one component of the document, referenced where it recurs.
if (!z.globalRegistry.has(knowledgeItemSchema)) z.globalRegistry.add(knowledgeItemSchema, { id: "KnowledgeItem" });

/** The upload form: a file and at most five text fields (userId, conversationId, parentId, path, description), with room to spare. */
const UPLOAD_FORM_LIMITS = { fields: 20, fieldBytes: 65_536 };

/** The upload reply the web app reads: `status`, `processingResult` (with `error`) and `chunks_processed`. */
function uploadReply(outcome: UploadOutcome): { status: 200 | 202; body: UploadResponse } {
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
function urlReply(outcome: UrlOutcome): { status: 200 | 202 | 422; body: ProcessUrlResponse } {
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const item = { params: idParamsSchema };

  // The web app checks that the file routes answer before it lists files.
  api.get("/api/debug/routes-test", { schema: { summary: "Whether the file routes answer", response: { 200: routesTestResponseSchema } } }, async () => ({
    status: "success" as const,
  }));

  api.get(
    "/api/files",
    {
      schema: {
        summary: "The user's knowledge items (streamed: a knowledge base may hold 300,000)",
        querystring: listFilesQuerySchema,
        response: { 200: knowledgeItemListSchema },
      },
    },
    async (request, reply) => {
      const { conversationId, parentId } = request.query;
      // The JSON array goes out as it is read, a page at a time (Fastify serializes no stream).
      return reply
        .header("content-type", "application/json; charset=utf-8")
        .send(knowledge.list(requireUser(request).id, { conversationId, parentId }) as never);
    },
  );

  api.get(
    "/api/folders",
    { schema: { summary: "The user's folders, as a tree", querystring: listFoldersQuerySchema, response: { 200: knowledgeItemListSchema } } },
    async (request) => knowledge.folderTree(requireUser(request).id),
  );

  api.post(
    "/api/folders",
    { schema: { summary: "Create a folder", body: createFolderRequestSchema, response: { 201: knowledgeItemSchema } } },
    async (request, reply) => reply.status(201).send(await knowledge.createFolder(requireUser(request).id, request.body)),
  );

  api.post(
    "/api/files",
    { schema: { summary: "Add a note, or a link kept as a reference", body: createFileRequestSchema, response: { 201: knowledgeItemSchema } } },
    async (request, reply) => reply.status(201).send(await knowledge.createEntry(requireUser(request).id, request.body)),
  );

  // One item, for the chat's citations (a cited passage opens its file's preview).
  api.get("/api/files/:id", { schema: { summary: "One knowledge item", ...item, response: { 200: knowledgeItemSchema } } }, async (request) =>
    knowledge.get(requireUser(request).id, request.params.id),
  );

  // The item's text by page, slide or sheet, for its preview (issue 33 item 4).
  api.get(
    "/api/files/:id/text",
    { schema: { summary: "An item's text as it was read, by page, slide, sheet or heading", ...item, response: { 200: itemTextResponseSchema } } },
    async (request) => knowledge.text(requireUser(request).id, request.params.id),
  );

  api.patch(
    "/api/files/:id",
    {
      schema: {
        summary: "Rename, describe, move an item, or edit a note's text",
        ...item,
        body: updateFileRequestSchema,
        response: { 200: knowledgeItemSchema },
      },
    },
    async (request) => knowledge.update(requireUser(request).id, request.params.id, request.body),
  );

  api.delete(
    "/api/files/:id",
    {
      schema: {
        summary: "Delete an item (a folder with everything inside)",
        ...item,
        response: { 200: z.object({ ok: z.literal(true), deleted: z.number().int().describe("Items deleted, the item itself included") }) },
      },
    },
    async (request) => ({ ok: true as const, deleted: await knowledge.remove(requireUser(request).id, request.params.id) }),
  );

  api.post(
    "/api/files/:id/retry",
    { schema: { summary: "Read an item again (one that failed or was stored only)", ...item, response: { 202: knowledgeItemSchema } } },
    async (request, reply) => reply.status(202).send(await knowledge.retry(requireUser(request).id, request.params.id)),
  );

  api.get(
    "/api/files/:id/download",
    {
      schema: {
        summary: "An item's file: saved, or with inline=1 opened in the browser when it shows safely",
        ...item,
        querystring: fileDownloadQuerySchema,
        response: { 200: mediaResponse("*/*", "The file as it was uploaded; a note as text, a link as a .url shortcut") },
      },
    },
    async (request, reply) => {
      const file = await knowledge.download(requireUser(request).id, request.params.id);
      // Open: only kinds a browser shows safely, and any text as plain text, so an uploaded page never runs here.
      const open = request.query.inline === "1" && opensInBrowser(file.filename);
      const contentType = open && file.contentType.startsWith("text/") ? "text/plain; charset=utf-8" : file.contentType;
      return reply
        .header("content-type", contentType)
        .header("content-disposition", contentDisposition(file.filename, open ? "inline" : "attachment"))
        .header("content-security-policy", DOWNLOAD_POLICY)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store")
        .send(file.body);
    },
  );

  api.get(
    "/api/conversations/:id/files",
    { schema: { summary: "The files of one conversation", ...item, response: { 200: knowledgeItemListSchema } } },
    async (request) => knowledge.conversationFiles(requireUser(request).id, request.params.id),
  );

  // The body is a multipart form (a file and its fields), read as a stream by the handler.
  api.post(
    "/api/upload",
    {
      config: { multipart: true },
      schema: {
        summary: "Upload a file (a .zip is unpacked into a folder); 202 while it is read in the background",
        response: { 200: uploadResponseSchema, 202: uploadResponseSchema },
      },
    },
    async (request, reply) => {
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
    },
  );

  api.post(
    "/api/process_url",
    {
      schema: {
        summary: "Add a web page: read now, or in the background (202); 422 with the reason when it cannot be read",
        body: processUrlRequestSchema,
        // A link that could not be read answers its own shape (the entry stays as a reference); other failures the one.
        response: {
          200: processUrlResponseSchema,
          202: processUrlResponseSchema,
          422: processUrlResponseSchema,
          "4xx": errorResponseSchema,
          "5xx": errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { status, body } = urlReply(await addKnowledge.processUrl(requireUser(request).id, request.body));
      return reply.status(status).send(body);
    },
  );

  api.post(
    "/api/process-note",
    { schema: { summary: "Add or replace a note and read it now", body: processNoteRequestSchema, response: { 200: processNoteResponseSchema } } },
    async (request) => addKnowledge.processNote(requireUser(request).id, request.body),
  );
}
