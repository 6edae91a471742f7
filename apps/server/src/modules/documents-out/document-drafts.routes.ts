import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { documentDraftSchema, draftExportSchema, saveDraftRequestSchema } from "@sage/contracts/documents-out";
import { ownerFirst, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { DocumentDrafts } from "./document-drafts.ts";

/** The canvas: read a document's draft, save the user's edit, export it again (decision 047). */
export function registerDocumentDraftRoutes(app: FastifyInstance, deps: { drafts: DocumentDrafts }) {
  const { drafts } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/document-drafts/:id",
    { schema: { summary: "A document's draft (the canvas)", params: idParamsSchema, response: { 200: documentDraftSchema } } },
    async (request) => drafts.get(requireUser(request).id, request.params.id),
  );

  api.put(
    "/api/document-drafts/:id",
    {
      // Whose it is comes first: another user's draft is not found, whatever the body says.
      preValidation: ownerFirst(drafts.get),
      schema: {
        summary: "Save the user's edit of a draft (409 when it changed since the editor opened it)",
        params: idParamsSchema,
        body: saveDraftRequestSchema,
        response: { 200: documentDraftSchema },
      },
    },
    async (request) => drafts.save(requireUser(request).id, request.params.id, request.body),
  );

  api.post(
    "/api/document-drafts/:id/export",
    { schema: { summary: "Write the draft's file again", params: idParamsSchema, response: { 200: draftExportSchema } } },
    async (request) => drafts.export(requireUser(request).id, request.params.id),
  );
}
