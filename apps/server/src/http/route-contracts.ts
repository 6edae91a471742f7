import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import fastifySwagger from "@fastify/swagger";
import type { FastifyInstance, FastifyRequest, FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler, RouteOptions } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema } from "@sage/contracts/common";
import { errorResponseSchema } from "@sage/contracts/errors";
import { z } from "zod";
import { SESSION_COOKIE } from "./session-guard.ts";

/**
 * Routes declare their contracts (decision 085): the zod schemas of @sage/contracts on the route, for params, query,
 * body and every response status. Fastify validates the input before the handler runs (a failure is answered by the
 * route's `invalidInput`, in the one error shape), the handler gets it typed, and the OpenAPI 3.1 document at
 * /api/openapi.json is generated from the same schemas.
 *
 * A routes file takes the typed instance: `const api = app.withTypeProvider<ZodTypeProvider>()`.
 */
export type { ZodTypeProvider } from "fastify-type-provider-zod";

/** The served document's path. */
export const OPENAPI_PATH = "/api/openapi.json";

/** A route as the app registered it, with where it was declared (for the test that names routes lacking a schema). */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema?: FastifySchema;
  /** The source file that declared it, relative to the repository (best effort, from the call stack). */
  declaredIn?: string;
}

/** Responses are checked against their schemas when a response is sent: in tests, not in production. */
export class ResponseContractError extends Error {
  readonly code = "response_contract";
  constructor(method: string, url: string, error: z.ZodError) {
    const issue = error.issues[0];
    super(`The response of ${method} ${url} does not match its schema: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
    this.name = "ResponseContractError";
  }
}

const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The routes file that called app.get/post/... : the first frame of ours outside the HTTP plumbing. */
function declaringFile(stack: string | undefined): string | undefined {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+\.ts):\d+:\d+\)?$/.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.replace(/^file:\/\//, "");
    if (file.includes("/node_modules/") || file.includes("/src/http/") || file.endsWith("/src/app.ts")) continue;
    return path.relative(repositoryRoot, file);
  }
  return undefined;
}

/** Input is parsed with the route's zod schema; an absent body or query reads as `{}`, as handlers always took it. */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const input = data ?? (httpPart === "body" || httpPart === "querystring" ? {} : data);
    const result = schema.safeParse(input);
    return result.success ? { value: result.data } : { error: result.error };
  };

/**
 * Responses go out as the handler made them (JSON.stringify: no field dropped, nothing re-encoded); with `check`,
 * each is first parsed with its schema and a mismatch fails the request, naming the route and the field.
 */
function serializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data: unknown) => {
      if (check) {
        const result = schema.safeParse(data);
        if (!result.success) throw new ResponseContractError(method, url, result.error);
      }
      return JSON.stringify(data);
    };
}

/**
 * A route's `preValidation`: whose the item is comes before its body and query are checked, so another user's item
 * is not found whatever was sent (a malformed id is left to the route's schema).
 */
export const ownerFirst =
  (check: (userId: number, id: number) => Promise<unknown>) =>
  async (request: FastifyRequest): Promise<void> => {
    const params = idParamsSchema.safeParse(request.params);
    if (params.success && request.user) await check(request.user.id, params.data.id);
  };

/**
 * A success that is not JSON (a file, a calendar, an event stream): documented with its media type(s); the handler's
 * bytes, text or stream go out as they are (Fastify serializes none of them).
 */
export const mediaResponse = (mediaType: string | readonly string[], description: string) => ({
  description,
  content: Object.fromEntries([mediaType].flat().map((type) => [type, { schema: fileBody }])),
});
const fileBody = z.custom<string | Buffer | Readable>().meta({ type: "string", format: "binary" } as never);

const ERROR_STATUSES = /^(4|5)(\d\d|xx)$/i;
// The one error shape is one component of the document, referenced by every route.
if (!z.globalRegistry.has(errorResponseSchema)) z.globalRegistry.add(errorResponseSchema, { id: "ErrorResponse" });

/** Every declared route also documents the one error shape, for 4xx and 5xx alike, unless it declares its own. */
function withErrorResponses(schema: FastifySchema | undefined): void {
  const response = schema?.response as Record<string, unknown> | undefined;
  if (!response) return;
  if (!Object.keys(response).some((status) => ERROR_STATUSES.test(status))) {
    response["4xx"] = errorResponseSchema;
    response["5xx"] = errorResponseSchema;
  }
}

/** Only /api is documented (the web app's files are not part of the API). */
const transform: typeof jsonSchemaTransform = (document) =>
  document.url.startsWith("/api/") ? jsonSchemaTransform(document) : { schema: { hide: true } as FastifySchema, url: document.url };

/**
 * Sets the zod compilers, records every route (with its schema and where it was declared), and registers the
 * OpenAPI generator. Runs before any route is registered.
 */
export async function registerRouteContracts(app: FastifyInstance, options: { checkResponses: boolean; version: string }): Promise<RegisteredRoute[]> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(options.checkResponses));
  const routes: RegisteredRoute[] = [];
  app.addHook("onRoute", (route: RouteOptions) => {
    withErrorResponses(route.schema);
    // The stack is formatted only when read: formatting it for every route of every test app (through Vitest's source
    // maps) was 8% of a route test's CPU, for a name only a failing contract test prints.
    const site = new Error();
    for (const method of [route.method].flat())
      if (method !== "HEAD")
        routes.push({
          method,
          url: route.url,
          schema: route.schema,
          get declaredIn() {
            return declaringFile(site.stack);
          },
        });
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "SAGE API",
        version: options.version,
        description: "The HTTP API of SAGE. Every route but login, health and the calendar feed needs a session cookie; every failure is `{ error, code }`.",
      },
      components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE } } },
      security: [{ session: [] }],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  return routes;
}

type Operations = Record<string, { responses?: Record<string, { description?: string }> }>;

/** The generated document, with its paths in a stable order (the checked-in copy diffs cleanly). */
export function openApiDocument(app: FastifyInstance): Record<string, unknown> {
  const document = structuredClone(app.swagger()) as unknown as { paths?: Record<string, Operations> } & Record<string, unknown>;
  const paths = Object.entries(document.paths ?? {}).sort(([a], [b]) => a.localeCompare(b));
  // Fastify's generator calls every response "Default Response"; say what each is.
  for (const [, operations] of paths)
    for (const operation of Object.values(operations))
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (response.description === "Default Response") response.description = ERROR_STATUSES.test(status) ? "Failure: `{ error, code }`" : "Success";
  return { ...document, paths: Object.fromEntries(paths) };
}

/** GET /api/openapi.json: the document, to a logged-in user (the session guard sees to that). */
export function registerOpenApiRoute(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      OPENAPI_PATH,
      { schema: { summary: "This document: the OpenAPI 3.1 description of every route", response: { 200: z.record(z.string(), z.unknown()) } } },
      async () => openApiDocument(app),
    );
}
