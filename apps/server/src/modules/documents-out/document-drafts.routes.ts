import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { saveDraftRequestSchema } from "@sage/contracts/documents-out";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { DocumentDrafts } from "./document-drafts.ts";

/** The canvas: read a document's draft, save the user's edit, export it again (decision 047). */
export function registerDocumentDraftRoutes(app: FastifyInstance, deps: { drafts: DocumentDrafts }) {
  const { drafts } = deps;
  app.get("/api/document-drafts/:id", async (request) => {
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return drafts.get(requireUser(request).id, id);
  });

  app.put("/api/document-drafts/:id", async (request) => {
    const userId = requireUser(request).id;
    const { id } = parseInput(idParamsSchema, request.params, "path");
    // Whose it is comes first: another user's draft is not found, whatever the body says.
    await drafts.get(userId, id);
    return drafts.save(userId, id, parseInput(saveDraftRequestSchema, request.body, "body"));
  });

  app.post("/api/document-drafts/:id/export", async (request) => {
    const { id } = parseInput(idParamsSchema, request.params, "path");
    return drafts.export(requireUser(request).id, id);
  });
}
