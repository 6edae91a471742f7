import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { mergePeopleRequestSchema, PEOPLE_TEXTS, peopleQuerySchema, personListSchema, personSchema, updatePersonRequestSchema } from "@sage/contracts/people";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { PeopleService } from "./people.service.ts";

/** The contract's messages are sentences the page shows as they are; a malformed id names no one. */
const invalidInput = {
  query: firstMessage(PEOPLE_TEXTS.queryInvalid),
  body: firstMessage(PEOPLE_TEXTS.nothingToUpdate),
  path: always(() => notFound(PEOPLE_TEXTS.notFound, "person_not_found")),
};

/** /api/people: the people pages, search, corrections, merge and hide, and writing a profile now. */
export function registerPeopleRoutes(app: FastifyInstance, deps: { service: PeopleService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { invalidInput };

  api.get(
    "/api/people",
    {
      config,
      schema: {
        summary: "The people the user deals with, matching a search (name, address, organisation, role); hidden=true lists the hidden ones",
        querystring: peopleQuerySchema,
        response: { 200: personListSchema },
      },
    },
    async (request) => service.list(requireUser(request).id, { q: request.query.q, hidden: request.query.hidden === "true" }),
  );

  api.get("/api/people/:id", { config, schema: { summary: "One person's page", params: idParamsSchema, response: { 200: personSchema } } }, async (request) =>
    service.get(requireUser(request).id, request.params.id),
  );

  api.patch(
    "/api/people/:id",
    {
      config,
      schema: {
        summary: "Correct a person (name, organisation, role, profile lines; null takes a correction back) or hide them",
        params: idParamsSchema,
        body: updatePersonRequestSchema,
        response: { 200: personSchema },
      },
    },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );

  api.post(
    "/api/people/:id/merge",
    {
      config,
      schema: {
        summary: "Merge another person into this one (one person, two addresses)",
        params: idParamsSchema,
        body: mergePeopleRequestSchema,
        response: { 200: personSchema },
      },
    },
    async (request) => service.merge(requireUser(request).id, request.params.id, request.body.otherId),
  );

  api.post(
    "/api/people/:id/profile",
    {
      config,
      schema: { summary: "Write the person's profile again now, from their contact card and mail", params: idParamsSchema, response: { 200: personSchema } },
    },
    async (request) => service.writeProfile(requireUser(request).id, request.params.id),
  );
}
