import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { generateText, jsonSchema, tool, type JSONSchema7 } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini } from "./fake-gemini.ts";

let fake: FakeGemini;
beforeAll(async () => void (fake = await startFakeGemini()));
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** POSTs one function declaration as the REST API receives it; the fake's status and error. */
async function declare(parameters: unknown) {
  const response = await fetch(`${fake.baseUrl}/models/gemini-2.0-flash:generateContent`, {
    method: "POST",
    body: JSON.stringify({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [{ functionDeclarations: [{ name: "noop", description: "x", parameters }] }],
    }),
  });
  return { status: response.status, error: (await response.json()).error as { message: string; status: string } | undefined };
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("the fake Gemini refuses the function declarations the real API refuses", () => {
  it("a JSON Schema keyword outside Gemini's Schema object is an unknown field, wherever it is", async () => {
    const cases: [unknown, string][] = [
      [
        object({ a: { $ref: "#/$defs/a" } }, { $defs: { a: { type: "string" } } }),
        `Unknown name "$defs" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
      ],
      [
        object({ a: { oneOf: [{ type: "string" }, { type: "number" }] } }),
        `Unknown name "oneOf" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.`,
      ],
      [object({ a: { allOf: [{ type: "string" }] } }), `Unknown name "allOf"`],
      [object({ a: { type: "string", const: "x" } }), `Unknown name "const"`],
      [
        object({ a: { type: "array", items: object({ b: { type: "string" } }, { additionalProperties: false }) } }),
        `Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters.properties[0].value.items'`,
      ],
      [object({ a: { type: "string" } }, { $schema: "http://json-schema.org/draft-07/schema#" }), `Unknown name "$schema"`],
      [object({ a: { type: "number", exclusiveMinimum: 0 } }), `Unknown name "exclusiveMinimum"`],
      [
        object({ a: { type: ["string", "null"] } }),
        `Unknown name "type" at 'tools[0].function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.`,
      ],
      [object({ a: { type: "array", items: [{ type: "string" }] } }), `Unknown name "items"`],
      [
        object({ a: { type: "string", enum: ["a", 1] } }),
        `Invalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.enum[1]' (TYPE_STRING), 1`,
      ],
    ];
    for (const [parameters, message] of cases) {
      const { status, error } = await declare(parameters);
      expect([status, error?.status], JSON.stringify(parameters)).toEqual([400, "INVALID_ARGUMENT"]);
      expect(error!.message).toContain(message);
    }
  });

  it("checks what a parsed schema must hold, in Google's words", async () => {
    const at = "GenerateContentRequest.tools[0].function_declarations[0].parameters";
    const cases: [unknown, string][] = [
      [object({ a: { description: "no type" } }), `* ${at}.properties[a].type: must be specified when not using one_of, any_of or all_of fields\n`],
      [object({ a: { type: "string", properties: { b: { type: "string" } } } }), `${at}.properties[a].properties: only allowed for OBJECT type`],
      [object({ a: { type: "string" } }, { required: ["a", "b"] }), `${at}.required[1]: property is not defined`],
      [object({ a: { type: "integer", format: "enum", enum: ["1", "2"] } }), `${at}.properties[a].enum: only allowed for STRING type`],
      [object({ url: { type: "string", format: "uri" } }), `${at}.properties[url].format: only 'enum' and 'date-time' are supported for STRING type`],
      [object({}), `${at}.properties: should be non-empty for OBJECT type`],
    ];
    for (const [parameters, message] of cases) {
      const { status, error } = await declare(parameters);
      expect([status, error?.status], JSON.stringify(parameters)).toEqual([400, "INVALID_ARGUMENT"]);
      expect(error!.message).toContain(message);
    }
  });

  it("takes what Gemini's Schema holds: anyOf, nullable, string enums, date-time, nested objects and arrays, bounds", async () => {
    const parameters = object(
      {
        when: { type: "STRING", format: "date-time", nullable: true },
        priority: { type: "string", enum: ["high", "low"] },
        attendees: { type: "array", minItems: "1", maxItems: 10, items: object({ email: { type: "string" } }, { required: ["email"] }) },
        amount: {
          anyOf: [
            { type: "number", minimum: 0 },
            { type: "string", pattern: "^\\d+$" },
          ],
        },
        options: { type: "object" },
      },
      { required: ["when"], propertyOrdering: ["when", "priority"], description: "A meeting", title: "Meeting" },
    );
    expect((await declare(parameters)).status).toBe(200);
    expect((await declare(undefined)).status).toBe(200); // a tool without parameters
  });

  it("a refused declaration fails the whole request through the AI SDK, and leaves the scripted reply queued", async () => {
    fake.script({ text: "Hello" });
    const google = createGoogleGenerativeAI({ apiKey: "k", baseURL: fake.baseUrl });
    const pick = tool({
      description: "Pick",
      inputSchema: jsonSchema({ type: "object", properties: { which: { oneOf: [{ type: "string" }, { type: "integer" }] } } } as JSONSchema7),
    });
    await expect(generateText({ model: google("gemini-2.0-flash"), prompt: "x", tools: { pick }, maxRetries: 0 })).rejects.toThrow(/Unknown name "oneOf"/);
    expect((await generateText({ model: google("gemini-2.0-flash"), prompt: "x", maxRetries: 0 })).text).toBe("Hello");
  });
});
