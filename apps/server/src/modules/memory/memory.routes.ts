import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { MEMORY_ERRORS, memoryContentRequestSchema, memorySettingsSchema } from "@sage/contracts/memories";
import type { z } from "zod";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { MemoryService } from "./memory.service.ts";

/** The contract's messages are sentences the UI shows as they are, so a failure answers the first one alone. */
function parseMemoryInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? "Invalid memory", "validation_error");
}

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  // A malformed id names no memory of this user.
  if (!result.success) throw notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found");
  return result.data.id;
}

export function registerMemoryRoutes(app: FastifyInstance, deps: { service: MemoryService }) {
  const { service } = deps;

  app.get("/api/memories", async (request) => service.list(requireUser(request).id));

  app.post("/api/memories", async (request, reply) => {
    const user = requireUser(request);
    const { content } = parseMemoryInput(memoryContentRequestSchema, request.body);
    // The same fact again answers the memory that holds it (200), not a second copy.
    const { memory, created } = await service.create(user.id, content, { source: "user" });
    return reply.status(created ? 201 : 200).send(memory);
  });

  app.patch("/api/memories/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    return service.update(user.id, id, parseMemoryInput(memoryContentRequestSchema, request.body).content);
  });

  app.delete("/api/memories/:id", async (request) => {
    const user = requireUser(request);
    await service.remove(user.id, parseId(request.params));
    return { ok: true as const };
  });

  app.get("/api/memory-settings", async (request) => ({ enabled: await service.enabled(requireUser(request).id) }));

  app.put("/api/memory-settings", async (request) => {
    const user = requireUser(request);
    const { enabled } = parseMemoryInput(memorySettingsSchema, request.body);
    await service.setEnabled(user.id, enabled);
    return { enabled };
  });
}
