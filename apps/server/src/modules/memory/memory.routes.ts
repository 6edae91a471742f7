import type { FastifyInstance } from "fastify";
import { okResponseSchema } from "@sage/contracts/auth";
import { idParamsSchema } from "@sage/contracts/common";
import { MEMORY_ERRORS, memoryContentRequestSchema, memoryListSchema, memorySchema, memorySettingsSchema } from "@sage/contracts/memories";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { MemoryService } from "./memory.service.ts";

/**
 * The contract's messages are sentences the UI shows as they are, so a failure answers the first one alone; a
 * malformed id names no memory of this user.
 */
const config = {
  invalidInput: { body: firstMessage("Invalid memory"), path: always(() => notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found")) },
};

export function registerMemoryRoutes(app: FastifyInstance, deps: { service: MemoryService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/memories", { schema: { summary: "What SAGE remembers about the user", response: { 200: memoryListSchema } } }, async (request) =>
    service.list(requireUser(request).id),
  );

  // The same fact again answers the memory that holds it (200), not a second copy.
  api.post(
    "/api/memories",
    { config, schema: { summary: "Remember a fact", body: memoryContentRequestSchema, response: { 201: memorySchema, 200: memorySchema } } },
    async (request, reply) => {
      const { memory, created } = await service.create(requireUser(request).id, request.body.content, { source: "user" });
      return reply.status(created ? 201 : 200).send(memory);
    },
  );

  api.patch(
    "/api/memories/:id",
    { config, schema: { summary: "Change a memory", params: idParamsSchema, body: memoryContentRequestSchema, response: { 200: memorySchema } } },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body.content),
  );

  api.delete(
    "/api/memories/:id",
    { config, schema: { summary: "Forget a memory", params: idParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  api.get("/api/memory-settings", { schema: { summary: "Whether SAGE uses its memory", response: { 200: memorySettingsSchema } } }, async (request) => ({
    enabled: await service.enabled(requireUser(request).id),
  }));

  api.put(
    "/api/memory-settings",
    { config, schema: { summary: "Switch the memory on or off", body: memorySettingsSchema, response: { 200: memorySettingsSchema } } },
    async (request) => {
      await service.setEnabled(requireUser(request).id, request.body.enabled);
      return { enabled: request.body.enabled };
    },
  );
}
