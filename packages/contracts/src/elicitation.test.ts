import { describe, expect, it } from "vitest";
import { checkElicitationContent, elicitationFields } from "./elicitation.ts";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 2 },
    email: { type: "string", format: "email" },
    seats: { type: "integer", minimum: 1, maximum: 10, default: 2 },
    agree: { type: "boolean" },
    room: {
      type: "string",
      oneOf: [
        { const: "a", title: "Room A" },
        { const: "b", title: "Room B" },
      ],
    },
    legacy: { type: "string", enum: ["x", "y"], enumNames: ["Ex", "Why"] },
    extras: {
      type: "array",
      items: {
        anyOf: [
          { const: "tea", title: "Tea" },
          { const: "cake", title: "Cake" },
        ],
      },
      maxItems: 1,
    },
  },
  required: ["name", "agree"],
};

describe("a server's form", () => {
  it("reads the fields the specification allows, in the server's order, with their labels and choices", () => {
    const fields = elicitationFields(schema)!;
    expect(fields.map((field) => [field.name, field.kind, field.label, field.required])).toEqual([
      ["name", "text", "Your name", true],
      ["email", "email", "email", false],
      ["seats", "integer", "seats", false],
      ["agree", "boolean", "agree", true],
      ["room", "choice", "room", false],
      ["legacy", "choice", "legacy", false],
      ["extras", "choices", "extras", false],
    ]);
    expect(fields[4]!.options).toEqual([
      { value: "a", label: "Room A" },
      { value: "b", label: "Room B" },
    ]);
    expect(fields[5]!.options).toEqual([
      { value: "x", label: "Ex" },
      { value: "y", label: "Why" },
    ]);
  });

  it("refuses a schema the specification does not allow (nested objects)", () => {
    expect(elicitationFields({ type: "object", properties: { address: { type: "object", properties: {} } } })).toBeNull();
    expect(elicitationFields({ type: "array" })).toBeNull();
  });

  it("checks an answer field by field, and fills in the defaults of fields left empty", () => {
    const fields = elicitationFields(schema)!;
    expect(checkElicitationContent(fields, { name: "Ada", agree: true })).toEqual({ content: { name: "Ada", agree: true, seats: 2 } });
    expect(checkElicitationContent(fields, { name: "A", email: "nope", seats: 11, room: "c", extras: ["tea", "cake"], other: 1 })).toEqual({
      problems: {
        other: "is not a field of this form",
        name: "must be at least 2 characters",
        email: "must be an email address",
        seats: "must be at most 10",
        agree: "is required",
        room: "must be one of the choices",
        extras: "pick at most 1",
      },
    });
    expect(checkElicitationContent(fields, { name: "Ada", agree: true, seats: 2.5 })).toEqual({ problems: { seats: "must be a whole number" } });
  });
});
