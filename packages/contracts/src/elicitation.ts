import { z } from "zod";

/**
 * A question a tool server asks the user in the middle of a call (MCP `elicitation/create`, decision 080). Form mode
 * asks for a few plain fields (the specification allows only a flat object of strings, numbers, booleans and
 * choices); URL mode sends the user to one of the server's pages (a sign-in, a payment) and waits.
 */

/** One field of a form, as the card shows it: read from the server's JSON Schema by `elicitationFields`. */
export interface ElicitationField {
  name: string;
  kind: "text" | "email" | "uri" | "date" | "date-time" | "number" | "integer" | "boolean" | "choice" | "choices";
  label: string;
  description?: string;
  required: boolean;
  /** choice / choices: the values and what each is called. */
  options?: { value: string; label: string }[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** choices: how many may be picked. */
  minItems?: number;
  maxItems?: number;
  default?: string | number | boolean | string[];
}

/** The requested schema as the specification allows it (anything else is refused before the user sees it). */
const optionSchema = z.object({ const: z.string(), title: z.string() });
const common = { title: z.string().optional(), description: z.string().optional() };
const propertySchema = z.union([
  z.object({
    type: z.literal("string"),
    ...common,
    enum: z.array(z.string()).min(1),
    enumNames: z.array(z.string()).optional(),
    default: z.string().optional(),
  }),
  z.object({ type: z.literal("string"), ...common, oneOf: z.array(optionSchema).min(1), default: z.string().optional() }),
  z.object({
    type: z.literal("string"),
    ...common,
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().nonnegative().optional(),
    default: z.string().optional(),
  }),
  z.object({
    type: z.enum(["number", "integer"]),
    ...common,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.object({ type: z.literal("boolean"), ...common, default: z.boolean().optional() }),
  z.object({
    type: z.literal("array"),
    ...common,
    minItems: z.number().int().nonnegative().optional(),
    maxItems: z.number().int().nonnegative().optional(),
    items: z.union([z.object({ type: z.literal("string"), enum: z.array(z.string()).min(1) }), z.object({ anyOf: z.array(optionSchema).min(1) })]),
    default: z.array(z.string()).optional(),
  }),
]);
export const elicitationSchemaSchema = z.object({
  type: z.literal("object"),
  properties: z.record(z.string(), propertySchema),
  required: z.array(z.string()).optional(),
});
export type ElicitationSchema = z.infer<typeof elicitationSchemaSchema>;

/** The fields of a requested schema, in the server's order; null when the schema is not one the specification allows. */
export function elicitationFields(schema: unknown): ElicitationField[] | null {
  const parsed = elicitationSchemaSchema.safeParse(schema);
  if (!parsed.success) return null;
  const required = new Set(parsed.data.required ?? []);
  return Object.entries(parsed.data.properties).map(([name, property]): ElicitationField => {
    const base = { name, label: property.title || name, required: required.has(name), ...(property.description ? { description: property.description } : {}) };
    const withDefault = <T extends object>(field: T) => (property.default === undefined ? field : { ...field, default: property.default });
    if (property.type === "boolean") return withDefault({ ...base, kind: "boolean" });
    if (property.type === "number" || property.type === "integer") {
      return withDefault({ ...base, kind: property.type, minimum: property.minimum, maximum: property.maximum });
    }
    if (property.type === "array") {
      const options =
        "enum" in property.items
          ? property.items.enum.map((value) => ({ value, label: value }))
          : property.items.anyOf.map((option) => ({ value: option.const, label: option.title }));
      return withDefault({ ...base, kind: "choices", options, minItems: property.minItems, maxItems: property.maxItems });
    }
    if ("enum" in property) {
      const options = property.enum.map((value, index) => ({ value, label: property.enumNames?.[index] ?? value }));
      return withDefault({ ...base, kind: "choice", options });
    }
    if ("oneOf" in property)
      return withDefault({ ...base, kind: "choice", options: property.oneOf.map((option) => ({ value: option.const, label: option.title })) });
    const text = property as { format?: ElicitationField["kind"]; minLength?: number; maxLength?: number };
    return withDefault({ ...base, kind: text.format ?? "text", minLength: text.minLength, maxLength: text.maxLength });
  });
}

export type ElicitationContent = Record<string, string | number | boolean | string[]>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why one answer does not fit its field, in words; null when it does. */
function fieldProblem(field: ElicitationField, value: unknown): string | null {
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? null : "must be yes or no";
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return null;
    }
    case "choice":
      return typeof value === "string" && field.options!.some((option) => option.value === value) ? null : "must be one of the choices";
    case "choices": {
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && field.options!.some((option) => option.value === item))) {
        return "must be among the choices";
      }
      if (field.minItems !== undefined && value.length < field.minItems) return `pick at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `pick at most ${field.maxItems}`;
      return null;
    }
    default: {
      if (typeof value !== "string") return "must be text";
      if (field.minLength !== undefined && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      if (field.kind === "email" && !EMAIL.test(value)) return "must be an email address";
      if (field.kind === "uri" && !URL.canParse(value)) return "must be a web address";
      if (field.kind === "date" && !DATE.test(value)) return "must be a date (YYYY-MM-DD)";
      if (field.kind === "date-time" && Number.isNaN(Date.parse(value))) return "must be a date and time";
      return null;
    }
  }
}

/**
 * An answer checked against its fields: the content to send (fields the user left empty take their default, as the
 * specification's SEP-1034 asks), or what is wrong with it, field by field.
 */
export function checkElicitationContent(
  fields: readonly ElicitationField[],
  content: Record<string, unknown>,
): { content: ElicitationContent } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const checked: ElicitationContent = {};
  for (const name of Object.keys(content)) if (!fields.some((field) => field.name === name)) problems[name] = "is not a field of this form";
  for (const field of fields) {
    const value = content[field.name] ?? field.default;
    if (value === undefined || value === "") {
      if (field.required) problems[field.name] = "is required";
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem) problems[field.name] = problem;
    else checked[field.name] = value as ElicitationContent[string];
  }
  return Object.keys(problems).length > 0 ? { problems } : { content: checked };
}

/** The turn's `elicitation-required` event: a server asks the user something while one of its tools runs. */
export const elicitationRequiredEventSchema = z.object({
  elicitationId: z.string(),
  serverId: z.string(),
  /** The server's name as Settings > Tools shows it. */
  server: z.string(),
  message: z.string(),
  mode: z.enum(["form", "url"]),
  /** Form mode: the fields asked for (the server's JSON Schema). */
  schema: elicitationSchemaSchema.optional(),
  /** URL mode: the page to open. */
  url: z.string().optional(),
});
export type ElicitationRequest = z.infer<typeof elicitationRequiredEventSchema>;

/** POST /api/elicitations/{elicitationId} */
export const elicitationAnswerSchema = z
  .object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((answer) => answer.action === "accept" || answer.content === undefined, "content goes only with accept");
export type ElicitationAnswer = z.infer<typeof elicitationAnswerSchema>;
export const elicitationParamsSchema = z.object({ elicitationId: z.string().min(1).max(100) });
export const pendingElicitationsResponseSchema = z.object({ elicitations: z.array(elicitationRequiredEventSchema) });
export const elicitationAnsweredSchema = z.object({ elicitationId: z.string(), action: z.enum(["accept", "decline", "cancel"]) });

export const ELICITATION_TEXTS = {
  notFound: "No question is waiting under this id",
  invalidAnswer: (problems: Record<string, string>) =>
    `Some answers do not fit: ${Object.entries(problems)
      .map(([name, problem]) => `${name} ${problem}`)
      .join("; ")}`,
  /** What the card says while a URL-mode question waits for the server's page. */
  urlWaiting: (host: string) => `Waiting for ${host} to finish`,
} as const;
