import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { COMMITMENT_TEXTS, commitmentQuerySchema, updateCommitmentRequestSchema } from "@sage/contracts/commitments";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { CommitmentsService } from "./commitments.service.ts";

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  if (!result.success) throw notFound(COMMITMENT_TEXTS.notFound, "commitment_not_found");
  return result.data.id;
}

/** /api/commitments: the ledger, filtered by direction and status; done, dismissed, a due date; Remind me. */
export function registerCommitmentRoutes(app: FastifyInstance, deps: { service: CommitmentsService }) {
  const { service } = deps;
  app.get("/api/commitments", async (request) => {
    const user = requireUser(request);
    const query = commitmentQuerySchema.safeParse(request.query ?? {});
    if (!query.success) throw badRequest(query.error.issues[0]?.message ?? COMMITMENT_TEXTS.directionInvalid, "validation_error");
    return service.list(user.id, query.data);
  });

  app.post("/api/commitments/scan", async (request, reply) => reply.status(202).send(await service.scan(requireUser(request).id)));

  app.patch("/api/commitments/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    await service.check(user.id, id);
    const body = updateCommitmentRequestSchema.safeParse(request.body ?? {});
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? COMMITMENT_TEXTS.nothingToUpdate, "validation_error");
    return service.update(user.id, id, body.data);
  });

  app.post("/api/commitments/:id/reminder", async (request, reply) => {
    const user = requireUser(request);
    return reply.status(201).send(await service.remind(user.id, parseId(request.params)));
  });
}
