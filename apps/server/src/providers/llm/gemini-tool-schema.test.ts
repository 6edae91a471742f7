import { describe, expect, it } from "vitest";
import { decodeToolArguments, toGeminiToolSchema, type GeminiToolSchema } from "./gemini-tool-schema.ts";

function converted(schema: unknown): GeminiToolSchema {
  const result = toGeminiToolSchema(schema);
  if (!result.ok) throw new Error(`refused: ${result.reason} (${result.detail})`);
  return result.schema;
}
const parameters = (schema: unknown) => converted(schema).parameters as any;

const person = { type: "object", properties: { name: { type: "string" }, email: { type: "string", format: "email" } }, required: ["name"] };

describe("toGeminiToolSchema", () => {
  it("inlines $ref to $defs, definitions and any pointer inside the schema, the reference's own description first", () => {
    const result = parameters({
      type: "object",
      $schema: "http://json-schema.org/draft-07/schema#",
      $defs: { person },
      definitions: { id: { type: "integer", description: "An id" } },
      properties: {
        organizer: { $ref: "#/$defs/person", description: "Who organises" },
        attendees: { type: "array", items: { $ref: "#/$defs/person" } },
        room: { $ref: "#/definitions/id" },
        same: { $ref: "#/properties/room" },
      },
      required: ["organizer", "missing"],
      additionalProperties: false,
    });
    const inlined = { type: "object", properties: { name: { type: "string" }, email: { type: "string", description: "(format email)" } }, required: ["name"] };
    expect(result).toEqual({
      type: "object",
      properties: {
        organizer: { ...inlined, description: "Who organises" },
        attendees: { type: "array", items: inlined },
        room: { type: "integer", description: "An id" },
        same: { type: "integer", description: "An id" },
      },
      required: ["organizer"], // a required name that is not a field is dropped (Gemini refuses it)
    });
  });

  it("merges allOf, reads oneOf as anyOf, and turns a union of string constants into an enum", () => {
    const result = parameters({
      type: "object",
      properties: {
        room: {
          allOf: [
            { type: "object", properties: { building: { type: "string" } }, required: ["building"] },
            { properties: { floor: { type: "integer", minimum: 0 } }, required: ["floor"] },
          ],
        },
        when: {
          oneOf: [
            { type: "string", format: "date-time" },
            { type: "object", properties: { day: { type: "string", format: "date" } } },
          ],
        },
        slot: { oneOf: [{ const: "morning" }, { const: "afternoon" }], description: "Part of the day" },
        kind: {
          type: "object",
          properties: { kind: { type: "string" } },
          oneOf: [{ properties: { kind: { const: "person" } } }, { properties: { kind: { const: "team" } } }],
        },
      },
    });
    expect(result.properties.room).toEqual({
      type: "object",
      properties: { building: { type: "string" }, floor: { type: "integer", description: "(at least 0)" } },
      required: ["building", "floor"],
    });
    expect(result.properties.when).toEqual({
      anyOf: [
        { type: "string", format: "date-time" },
        { type: "object", properties: { day: { type: "string", description: "(format date)" } } },
      ],
    });
    expect(result.properties.slot).toEqual({ type: "string", enum: ["morning", "afternoon"], description: "Part of the day" });
    expect(result.properties.kind.anyOf.map((form: any) => form.properties.kind)).toEqual([
      { type: "string", enum: ["person"] },
      { type: "string", enum: ["team"] },
    ]);
  });

  it("null becomes nullable, a list of types anyOf; non-string enums keep their type and say their values", () => {
    const result = parameters({
      type: "object",
      properties: {
        note: { type: ["string", "null"] },
        length: { anyOf: [{ type: "integer", exclusiveMinimum: 0 }, { type: "null" }], description: "Minutes" },
        amount: { type: ["number", "string"] },
        level: { type: "integer", enum: [1, 2, 3] },
        flag: { const: true },
        label: { enum: ["a", "b", null] },
      },
    });
    expect(result.properties).toEqual({
      note: { type: ["string", "null"] },
      length: { type: ["integer", "null"], description: "Minutes (more than 0)" },
      amount: { anyOf: [{ type: "number" }, { type: "string" }] },
      level: { type: "integer", description: "(one of 1, 2, 3)" },
      flag: { type: "boolean", description: "(one of true)" },
      label: { type: ["string", "null"], enum: ["a", "b"] },
    });
  });

  it("asks for JSON text where Gemini cannot describe the shape, and decodes the model's text back", () => {
    const schema = converted({
      type: "object",
      properties: {
        labels: { type: "object", additionalProperties: { type: "string" }, description: "Free-form labels" },
        value: { description: "Anything" },
        point: { type: "array", items: [{ type: "number" }, { type: "number" }] },
        rows: { type: "array", items: { type: "object", properties: { data: { type: "object" } } } },
        mixed: { enum: ["auto", 0] },
      },
    });
    const { properties } = schema.parameters as any;
    expect(properties.labels).toEqual({ type: "string", description: "Free-form labels (give it as JSON text: a JSON object with string values)" });
    expect(properties.value.type).toBe("string");
    expect(properties.point.description).toBe(
      '(give it as JSON text: a JSON array, as this JSON Schema describes: {"type":"array","items":[{"type":"number"},{"type":"number"}]})',
    );
    expect(properties.rows.items.properties.data).toMatchObject({ type: "string" });
    expect(properties.mixed.description).toMatch(/JSON text: one of "auto", 0/);
    expect(schema.jsonText).toEqual([["labels"], ["value"], ["point"], ["rows", null, "data"], ["mixed"]]);
    const args = { labels: '{"team":"board"}', value: "42", point: "[1, 2]", rows: [{ data: '{"a":1}' }, { data: "not json" }], mixed: "0", other: "{}" };
    expect(decodeToolArguments(args, schema.jsonText)).toEqual({
      labels: { team: "board" },
      value: 42,
      point: [1, 2],
      rows: [{ data: { a: 1 } }, { data: "not json" }],
      mixed: 0,
      other: "{}",
    });
    expect(args.labels).toBe('{"team":"board"}'); // the model's own call is left as it was
  });

  it("a union with a branch Gemini cannot describe is asked for whole as JSON text", () => {
    const schema = converted({ type: "object", properties: { target: { anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }] } } });
    expect((schema.parameters as any).properties.target.type).toBe("string");
    expect(decodeToolArguments({ target: '{"id":7}' }, schema.jsonText)).toEqual({ target: { id: 7 } });
    expect(decodeToolArguments({ target: "plain words" }, schema.jsonText)).toEqual({ target: "plain words" });
  });

  it("a tool without fields is declared without parameters; a root union of forms becomes one object", () => {
    for (const empty of [{ type: "object" }, { type: "object", properties: {} }, {}, { type: "object", additionalProperties: false }]) {
      expect(parameters(empty)).toEqual({ type: "object", properties: {} });
    }
    expect(
      parameters({
        type: "object",
        oneOf: [
          { properties: { id: { type: "string" } }, required: ["id"] },
          { properties: { name: { type: "string" } }, required: ["name"] },
        ],
      }),
    ).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
      description: "Give the fields of one of these forms: 1) id; 2) name.",
    });
    expect(parameters({ $ref: "#/$defs/input", $defs: { input: { type: "object", properties: { q: { type: "string" } } } } })).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
    });
  });

  it("keeps a field named __proto__ as a field", () => {
    const result = parameters(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__","toString"]}'));
    expect(Object.keys(result.properties)).toEqual(["__proto__"]);
    expect(result.required).toEqual(["__proto__"]);
  });

  it("refuses, in words, a schema that refers to itself, one pointing outside itself, or one too large once written out", () => {
    const tree = {
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { title: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    };
    expect(toGeminiToolSchema(tree)).toEqual({
      ok: false,
      reason: "its input refers to itself without end, which Gemini cannot describe",
      detail: 'Recursive $ref "#/$defs/node" at properties.root.properties.children.items',
    });
    expect(toGeminiToolSchema({ type: "object", properties: { a: { allOf: [{ $ref: "#" }] } } })).toMatchObject({
      ok: false,
      detail: 'Recursive $ref "#" at properties.a',
    });
    expect(toGeminiToolSchema({ type: "object", properties: { a: { $ref: "https://example.com/a.json" } } })).toMatchObject({
      ok: false,
      reason: "its input refers to a definition that is not in it",
    });
    expect(toGeminiToolSchema({ type: "object", properties: { a: { $ref: "#/$defs/none" } } })).toMatchObject({
      ok: false,
      detail: '$ref "#/$defs/none" at properties.a does not point inside the schema',
    });
    // Each level refers to the next twice: 2^12 leaves once written out.
    const $defs = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`l${i}`, { type: "object", properties: { a: { $ref: `#/$defs/l${i + 1}` }, b: { $ref: `#/$defs/l${i + 1}` } } }]),
    );
    $defs.l12 = { type: "string" } as never;
    expect(toGeminiToolSchema({ type: "object", properties: { top: { $ref: "#/$defs/l0" } }, $defs })).toMatchObject({
      ok: false,
      reason: "its input description is too large",
    });
    expect(toGeminiToolSchema({ type: "array", items: { type: "string" } })).toMatchObject({ ok: false, reason: "its input is not a set of named fields" });
    expect(toGeminiToolSchema("nope")).toMatchObject({ ok: false, reason: "its input description is not valid" });
    expect(toGeminiToolSchema({ type: "object", properties: { a: { allOf: [{ type: 7 }, { type: "string" }] } } })).toMatchObject({
      ok: false,
      reason: "its input description is not valid",
    });
    let deep: object = { type: "string" };
    for (let level = 0; level < 40; level++) deep = { type: "object", properties: { next: deep } };
    expect(toGeminiToolSchema(deep)).toMatchObject({ ok: false, reason: "its input is nested too deeply" });
  });
});
