import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { mergePeopleRequestSchema, PEOPLE_TEXTS, peopleQuerySchema, updatePersonRequestSchema } from "@sage/contracts/people";
import type { z } from "zod";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { PeopleService } from "./people.service.ts";

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  if (!result.success) throw notFound(PEOPLE_TEXTS.notFound, "person_not_found");
  return result.data.id;
}

function parse<S extends z.ZodType>(schema: S, input: unknown, fallback: string): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? fallback, "validation_error");
  return result.data;
}

/** /api/people: the people pages, search, corrections, merge and hide, and writing a profile now. */
export function registerPeopleRoutes(app: FastifyInstance, deps: { service: PeopleService }) {
  const { service } = deps;

  app.get("/api/people", async (request) => {
    const user = requireUser(request);
    const query = parse(peopleQuerySchema, request.query, PEOPLE_TEXTS.queryInvalid);
    return service.list(user.id, { q: query.q, hidden: query.hidden === "true" });
  });

  app.get("/api/people/:id", async (request) => {
    const user = requireUser(request);
    return service.get(user.id, parseId(request.params));
  });

  app.patch("/api/people/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    await service.check(user.id, id);
    return service.update(user.id, id, parse(updatePersonRequestSchema, request.body, PEOPLE_TEXTS.nothingToUpdate));
  });

  app.post("/api/people/:id/merge", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    await service.check(user.id, id);
    return service.merge(user.id, id, parse(mergePeopleRequestSchema, request.body, PEOPLE_TEXTS.otherNotFound).otherId);
  });

  app.post("/api/people/:id/profile", async (request) => {
    const user = requireUser(request);
    return service.writeProfile(user.id, parseId(request.params));
  });
}
