import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import {
  COMMITMENT_TEXTS,
  commitmentListSchema,
  commitmentQuerySchema,
  commitmentReminderResponseSchema,
  commitmentScanResponseSchema,
  commitmentSchema,
  updateCommitmentRequestSchema,
} from "@sage/contracts/commitments";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import { ownerFirst, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { CommitmentsService } from "./commitments.service.ts";

/** The contract's messages are sentences the page shows; a malformed id names no commitment of this user. */
const config = {
  invalidInput: {
    query: firstMessage(COMMITMENT_TEXTS.directionInvalid),
    body: firstMessage(COMMITMENT_TEXTS.nothingToUpdate),
    path: always(() => notFound(COMMITMENT_TEXTS.notFound, "commitment_not_found")),
  },
};

/** /api/commitments: the ledger, filtered by direction and status; done, dismissed, a due date; Remind me. */
export function registerCommitmentRoutes(app: FastifyInstance, deps: { service: CommitmentsService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/commitments",
    { config, schema: { summary: "The commitments ledger", querystring: commitmentQuerySchema, response: { 200: commitmentListSchema } } },
    async (request) => service.list(requireUser(request).id, request.query),
  );

  api.post(
    "/api/commitments/scan",
    { schema: { summary: "Read the user's new items for commitments now", response: { 202: commitmentScanResponseSchema } } },
    async (request, reply) => reply.status(202).send(await service.scan(requireUser(request).id)),
  );

  api.patch(
    "/api/commitments/:id",
    {
      config,
      // Another user's commitment is not found, whatever the body says.
      preValidation: ownerFirst(service.check),
      schema: {
        summary: "Mark a commitment done or dismissed, or set its due date",
        params: idParamsSchema,
        body: updateCommitmentRequestSchema,
        response: { 200: commitmentSchema },
      },
    },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );

  api.post(
    "/api/commitments/:id/reminder",
    { config, schema: { summary: "Remind me of a commitment", params: idParamsSchema, response: { 201: commitmentReminderResponseSchema } } },
    async (request, reply) => reply.status(201).send(await service.remind(requireUser(request).id, request.params.id)),
  );
}
