import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { notFound } from "./app-error.ts";
import { registerErrorHandler } from "./error-handler.ts";
import { always, firstMessage } from "./invalid-input.ts";
import { registerRouteContracts, type ZodTypeProvider } from "./route-contracts.ts";

const noteSchema = z.object({ title: z.string({ error: "Give the note a title" }).min(1, "Give the note a title"), size: z.coerce.number().int().optional() });
const noteReplySchema = z.object({ id: z.number().int(), title: z.string() });

/** A bare app with the contract plumbing and one route per way of answering bad input. */
async function appWithNotes(checkResponses: boolean, reply: (id: number, title: string) => unknown = (id, title) => ({ id, title })) {
  const app = Fastify();
  await registerRouteContracts(app, { checkResponses, version: "test" });
  registerErrorHandler(app);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ id: z.coerce.number().int().positive() });
  const schema = { params, body: noteSchema, response: { 200: noteReplySchema } };
  api.put("/api/notes/:id", { schema }, async (request) => reply(request.params.id, request.body.title) as never);
  api.put(
    "/api/sentences/:id",
    { schema, config: { invalidInput: { body: firstMessage("Invalid note"), path: always(() => notFound("Note not found", "note_not_found")) } } },
    async (request) => ({ id: request.params.id, title: request.body.title }),
  );
  await app.ready();
  return app;
}

describe("route contracts: input", () => {
  test("a handler gets the parsed input: a path id as a number", async () => {
    const app = await appWithNotes(true);
    const response = await app.inject({ method: "PUT", url: "/api/notes/7", payload: { title: "Board" } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 7, title: "Board" });
  });

  test("bad input is answered in the one error shape, naming the part and the field, as parseInput did", async () => {
    const app = await appWithNotes(true);
    const response = await app.inject({ method: "PUT", url: "/api/notes/7", payload: { title: "" } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: "Invalid body: title: Give the note a title", code: "validation_error" });
    const badPath = await app.inject({ method: "PUT", url: "/api/notes/seven", payload: { title: "Board" } });
    expect(badPath.statusCode).toBe(400);
    expect(badPath.json()).toMatchObject({ error: expect.stringMatching(/^Invalid path: id: /), code: "validation_error" });
  });

  test("an absent body reads as {}: the missing field is named, not the body", async () => {
    const app = await appWithNotes(true);
    const response = await app.inject({ method: "PUT", url: "/api/notes/7" });
    expect(response.json()).toEqual({ error: "Invalid body: title: Give the note a title", code: "validation_error" });
  });

  test("a route words its own answers: the contract's sentence alone, and a malformed id as not found", async () => {
    const app = await appWithNotes(true);
    const sentence = await app.inject({ method: "PUT", url: "/api/sentences/7", payload: {} });
    expect(sentence.statusCode).toBe(400);
    expect(sentence.json()).toEqual({ error: "Give the note a title", code: "validation_error" });
    const malformed = await app.inject({ method: "PUT", url: "/api/sentences/0", payload: { title: "Board" } });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ error: "Note not found", code: "note_not_found" });
  });
});

describe("route contracts: responses", () => {
  test("checked, a response that breaks its schema fails, naming the route and the field", async () => {
    const app = await appWithNotes(true, (id) => ({ id, title: 42 }));
    const response = await app.inject({ method: "PUT", url: "/api/notes/7", payload: { title: "Board" } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: expect.stringContaining("The response of PUT /api/notes/:id does not match its schema: title:"),
      code: "response_contract",
    });
  });

  test("unchecked (production), it goes out as the handler made it", async () => {
    const app = await appWithNotes(false, (id) => ({ id, title: 42 }));
    const response = await app.inject({ method: "PUT", url: "/api/notes/7", payload: { title: "Board" } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 7, title: 42 });
  });

  test("a field the schema does not name is sent, not dropped", async () => {
    const app = await appWithNotes(true, (id, title) => ({ id, title, pinned: true }));
    const response = await app.inject({ method: "PUT", url: "/api/notes/7", payload: { title: "Board" } });
    expect(response.json()).toEqual({ id: 7, title: "Board", pinned: true });
  });

  test("errors are documented as the one shape on every declared route", async () => {
    const app = await appWithNotes(true);
    const document = app.swagger() as unknown as { paths: Record<string, { put: { responses: Record<string, unknown> } }> };
    expect(Object.keys(document.paths["/api/notes/{id}"]!.put.responses)).toEqual(["200", "4XX", "5XX"]);
  });
});
