import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { SHARE_TEXTS, createShareRequestSchema, createdShareSchema, fileShareListSchema } from "@sage/contracts/shares";
import { z } from "zod";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import { firstMessage } from "../../http/invalid-input.ts";
import { mediaResponse, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { FileShares } from "./file-shares.ts";
import type { KnowledgeService } from "./knowledge.service.ts";

/** Where a shared link points: outside /api (every /api route needs a session), on the host the user reached SAGE by. */
export const SHARED_PATH = "/shared";
const shareUrl = (request: FastifyRequest, token: string) => `${request.protocol}://${request.host}${SHARED_PATH}/${token}`;

/** What a shared file may do in the browser that opens it: nothing but show itself, never framed. */
const SHARED_POLICY =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Shown as they are in the browser: a PDF, pictures, and text (always as plain text). Everything else is saved. */
const SHOWN = (name: string) => /\.(pdf|png|jpe?g|webp|txt|md|csv)$/i.test(name.trim());

/** The answer of no session, a proxy or a search engine keeps, and no page it links to learns the link. */
function privateHeaders(reply: FastifyReply) {
  return reply
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .header("x-robots-tag", "noindex, nofollow")
    .header("referrer-policy", "no-referrer")
    .header("content-security-policy", SHARED_POLICY);
}

const GONE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head>
<body style="font-family: sans-serif; margin: 3rem"><h1>Link not found</h1><p>${SHARE_TEXTS.linkGone}</p></body></html>
`;

export function registerFileShareRoutes(app: FastifyInstance, deps: { shares: FileShares; knowledge: KnowledgeService }) {
  const { shares, knowledge } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/files/:id/share",
    {
      config: { invalidInput: { body: firstMessage(SHARE_TEXTS.expiresInDays) } },
      schema: {
        summary: "Share a file or note by link: anyone with the link can open it, read-only, until it expires (7 days unless said)",
        params: idParamsSchema,
        body: createShareRequestSchema,
        response: { 201: createdShareSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const item = await knowledge.requireItem(user.id, request.params.id);
      if (item.type !== "file" && item.type !== "note") throw badRequest(SHARE_TEXTS.notShareable, "not_shareable");
      const { token, ...made } = await shares.share(user.id, item, request.body.expiresInDays);
      return reply.status(201).send({ ...made, url: shareUrl(request, token) });
    },
  );

  api.get(
    "/api/shares",
    { schema: { summary: "The user's live shared links (the links themselves are shown only when made)", response: { 200: fileShareListSchema } } },
    async (request) => shares.list(requireUser(request).id),
  );

  api.delete(
    "/api/shares/:id",
    { schema: { summary: "Stop sharing: the link stops working at once", params: idParamsSchema, response: { 204: z.null().describe("Stopped") } } },
    async (request, reply) => {
      if (!(await shares.stop(requireUser(request).id, request.params.id))) throw notFound(SHARE_TEXTS.shareNotFound, "share_not_found");
      return reply.status(204).send(null);
    },
  );

  // No session (the guard only looks at /api): the token is the key. Unknown, expired and stopped links, and a file
  // gone from the disk, get the same plain page, so the answer tells nothing about which.
  api.get(
    `${SHARED_PATH}/:token`,
    {
      schema: {
        summary: "A shared file, by its link's token (no session)",
        params: z.object({ token: z.string() }),
        response: { 200: mediaResponse("*/*", "The file as it was uploaded"), 404: mediaResponse("text/html", "The one page for any link that opens nothing") },
      },
    },
    async (request, reply) => {
      const gone = () => privateHeaders(reply).status(404).header("content-type", "text/html; charset=utf-8").send(GONE_PAGE);
      const token = request.params.token;
      const found = /^[A-Za-z0-9_-]{43}$/.test(token) ? await shares.open(token) : null;
      if (!found) return gone();
      let file: Awaited<ReturnType<KnowledgeService["download"]>>;
      try {
        file = await knowledge.download(found.userId, found.itemId);
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return gone();
        throw error;
      }
      const shown = SHOWN(file.filename);
      // Text is always plain text (an uploaded page never runs); the type comes from the checked extension.
      const contentType = shown && file.contentType.startsWith("text/") ? "text/plain; charset=utf-8" : file.contentType;
      return privateHeaders(reply)
        .header("content-type", contentType)
        .header("content-disposition", contentDisposition(file.filename, shown ? "inline" : "attachment"))
        .send(file.body);
    },
  );
}
