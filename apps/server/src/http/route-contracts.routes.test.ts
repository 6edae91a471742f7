import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OPENAPI_FILE } from "../openapi-document.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { OPENAPI_PATH, openApiDocument, type RegisteredRoute } from "./route-contracts.ts";

const HOW = [
  "declare it on the route with the zod schemas of @sage/contracts:",
  "  app.withTypeProvider<ZodTypeProvider>().post(url, { schema: { params, querystring, body, response: { 200: ... } } }, handler)",
  "(apps/server/src/modules/reminders/reminders.routes.ts shows the pattern; docs/decisions/085-routes-declare-their-contracts.md says why),",
  "then run `npm run openapi` and commit docs/openapi.json.",
].join("\n");

/**
 * What a route leaves undeclared: a response for success always (a redirect's success is its 302), and its path's
 * parameters when it has any.
 */
function missing(route: RegisteredRoute): string[] {
  const responses = Object.keys((route.schema?.response ?? {}) as object);
  return [
    ...(responses.some((status) => /^(2|30[1278])/.test(status)) ? [] : ["success response"]),
    ...(route.url.includes(":") && !route.schema?.params ? ["params"] : []),
  ];
}

describe("route contracts (decision 085)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(() => t.close());

  test("every /api route declares its params and its responses", () => {
    const problems: string[] = [];
    for (const route of t.routes.filter((item) => item.url.startsWith("/api/"))) {
      const name = `${route.method} ${route.url}`;
      const gaps = missing(route);
      if (gaps.length > 0) problems.push(`${name} (in ${route.declaredIn ?? "an unknown file"}) declares no ${gaps.join(" and no ")} schema: ${HOW}`);
    }
    expect(problems, problems.join("\n\n")).toEqual([]);
  });

  test("the checked-in OpenAPI document is the one the routes generate", () => {
    const checkedIn = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as unknown;
    expect(checkedIn, "docs/openapi.json is out of date: run `npm run openapi` and commit it").toEqual(openApiDocument(t.app));
  });

  test("the document is served to a logged-in user only", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: OPENAPI_PATH });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: "Not logged in", code: "unauthorized" });

    const served = await t.app.inject({ method: "GET", url: OPENAPI_PATH, headers: { cookie: await t.login() } });
    expect(served.statusCode).toBe(200);
    const document = served.json<{ openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    expect(document.openapi).toBe("3.1.0");
    // A declared route, with its path parameter in OpenAPI's form and the one error shape beside its success.
    expect(Object.keys(document.paths["/api/reminders/{id}"]!)).toEqual(expect.arrayContaining(["patch", "delete"]));
    expect(document.paths["/api/reminders/{id}"]!.patch!.responses["4XX"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
    });
  });
});
