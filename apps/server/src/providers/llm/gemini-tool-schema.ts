import type { JsonSchema } from "./llm.ts";

/**
 * A tool's JSON Schema as Gemini can take it (decision 029). Gemini's function declarations take a subset of
 * OpenAPI 3.0's Schema object and refuse the whole request for anything else; @ai-sdk/google maps only part of
 * JSON Schema onto it (it passes `oneOf`/`allOf` through, throws on some `$ref`s and mixed enums, keeps formats
 * Gemini refuses). This turns any schema into the part both understand: `$ref`s inlined, `allOf` merged, `oneOf`
 * read as `anyOf`, lists of types as `anyOf`, `null` as nullable, only string enums, constraints Gemini does not
 * keep said in the description, and a shape Gemini cannot describe (any value, a free-form map, a tuple) asked
 * for as JSON text, which `decodeToolArguments` parses back before the tool runs. A schema that refers to itself
 * cannot be written out, and is refused with the reason.
 */

/** A step down a tool's arguments: a property's name, or null for each element of an array. */
export type ArgumentStep = string | null;

export interface GeminiToolSchema {
  /** JSON Schema in the subset @ai-sdk/google turns into a Schema the Gemini API takes. */
  parameters: JsonSchema;
  /** Where the model writes a value as JSON text; decodeToolArguments parses these back. */
  jsonText: ArgumentStep[][];
}

export type GeminiToolSchemaResult = { ok: true; schema: GeminiToolSchema } | { ok: false; reason: string; detail: string };

/** Past these a schema is refused rather than sent (inlining references can multiply a schema's size). */
const MAX_NODES = 2_000;
const MAX_DEPTH = 32;
/** A shape given as JSON text quotes its JSON Schema for the model when it is this short. */
const MAX_QUOTED_SCHEMA = 600;

type Node = Record<string, unknown>;
/** A converted schema node, or a value the model must write as JSON text (with a hint of what it holds). */
type Converted = { schema: Node; jsonText: ArgumentStep[][] } | { hint: string; quoteSchema?: boolean };

class Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly detail: string,
  ) {
    super(reason);
  }
}

interface Context {
  root: Node;
  /** The references being inlined above the node being converted: meeting one again is a recursion. */
  expanding: string[];
  nodes: number;
}

/** A key set as data, even "__proto__" (tools name their fields as they like). */
const setOwn = (node: Node, key: string, value: unknown) => Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
const isObject = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const at = (where: string) => where || "the root";
const child = (where: string, step: string) => (where ? `${where}.${step}` : step);

/** `true`, `{}` and annotations alone allow any value. */
const asNode = (value: unknown, where: string): Node => {
  if (value === true || value === undefined) return {};
  if (value === false) return { not: {} };
  if (!isObject(value)) throw new Refusal("its input description is not valid", `The schema at ${at(where)} is ${JSON.stringify(value)}, not an object`);
  return value;
};

/** A `#...` JSON Pointer into the tool's own schema; anything else (another document, an $id) cannot be read. */
function lookUp(root: Node, reference: string, where: string): Node {
  const unknown = () =>
    new Refusal("its input refers to a definition that is not in it", `$ref "${reference}" at ${at(where)} does not point inside the schema`);
  if (!reference.startsWith("#")) throw unknown();
  let target: unknown = root;
  const pointer = decodeURIComponent(reference.slice(1));
  for (const token of pointer ? pointer.split("/").slice(1) : []) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(target) && !Array.isArray(target)) throw unknown();
    target = (target as Node)[key];
    if (target === undefined) throw unknown();
  }
  return asNode(target, where);
}

/** A node's `$ref` and `allOf` parts, references read, as plain parts to merge; the references are kept in `refs`. */
function flatten(node: Node, context: Context, where: string, refs: string[]): Node[] {
  const { $ref: reference, allOf, ...rest } = node;
  const parts: Node[] = Object.keys(rest).length > 0 ? [rest] : []; // a reference's siblings first: their description wins
  if (typeof reference === "string") {
    if (context.expanding.includes(reference)) {
      throw new Refusal("its input refers to itself without end, which Gemini cannot describe", `Recursive $ref "${reference}" at ${at(where)}`);
    }
    if (!refs.includes(reference)) {
      refs.push(reference);
      parts.push(...flatten(lookUp(context.root, reference, where), context, where, refs));
    }
  }
  if (Array.isArray(allOf)) for (const part of allOf) parts.push(...flatten(asNode(part, where), context, where, refs));
  return parts;
}

const typesOf = (node: Node): string[] | undefined =>
  typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : undefined;

/** allOf's parts as one node: properties and required joined, types intersected, the first of anything else. */
function merge(parts: Node[]): Node {
  const merged: Node = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (!(key in merged)) merged[key] = value;
      else if (key === "properties" && isObject(value) && isObject(merged.properties)) {
        const properties: Node = { ...merged.properties };
        for (const [name, schema] of Object.entries(value))
          setOwn(properties, name, Object.hasOwn(properties, name) ? { allOf: [properties[name], schema] } : schema);
        merged.properties = properties;
      } else if (key === "required" && Array.isArray(value) && Array.isArray(merged.required)) merged.required = [...new Set([...merged.required, ...value])];
      else if (key === "type") {
        const both = typesOf(merged)!.filter((type) => typesOf(part)!.includes(type) || (type === "number" && typesOf(part)!.includes("integer")));
        if (both.length > 0) merged.type = both;
      }
    }
  }
  return merged;
}

const quote = (value: unknown) => JSON.stringify(value);
/** A node without the words about it, to share its constraints with each branch of a union. */
const omitAnnotations = ({ description: _description, title: _title, default: _default, ...rest }: Node): Node => rest;

/** The description, with what Gemini does not keep said in words. */
function describe(node: Node, notes: string[]): string | undefined {
  const text = [typeof node.description === "string" ? node.description : typeof node.title === "string" ? node.title : ""];
  if (node.default !== undefined) notes.push(`default ${quote(node.default)}`);
  const said = notes.length > 0 ? `(${notes.join("; ")})` : "";
  return [...text, said].filter(Boolean).join(" ") || undefined;
}

function boundNotes(node: Node): string[] {
  const notes: string[] = [];
  const say = (key: string, words: string) => node[key] !== undefined && typeof node[key] !== "object" && notes.push(`${words} ${node[key]}`);
  say("minimum", "at least");
  say("exclusiveMinimum", "more than");
  say("maximum", "at most");
  say("exclusiveMaximum", "less than");
  say("multipleOf", "a multiple of");
  say("maxLength", "at most this many characters:");
  say("pattern", "matching the pattern");
  say("minItems", "at least this many items:");
  say("maxItems", "at most this many items:");
  if (node.uniqueItems === true) notes.push("no repeated items");
  return notes;
}

const KEPT_FORMATS: Record<string, string[]> = { string: ["date-time"], number: ["float", "double"], integer: ["int32", "int64"] };

/** One JSON Schema node as Gemini can take it. */
function convert(input: unknown, context: Context, where: string, depth: number, root = false): Converted {
  if (++context.nodes > MAX_NODES)
    throw new Refusal("its input description is too large", `More than ${MAX_NODES} schema nodes once its references are written out`);
  if (depth > MAX_DEPTH) throw new Refusal("its input is nested too deeply", `More than ${MAX_DEPTH} levels at ${at(where)}`);
  let node = asNode(input, where);
  if (node.$ref !== undefined || node.allOf !== undefined) {
    const refs: string[] = [];
    node = merge(flatten(node, context, where, refs));
    context.expanding.push(...refs);
    try {
      return convert(node, context, where, depth + 1, root);
    } finally {
      context.expanding.splice(context.expanding.length - refs.length, refs.length);
    }
  }
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...shared } = omitAnnotations(node);
    const branches = union.map((branch) => (Object.keys(shared).length > 0 ? { allOf: [shared, branch] } : branch));
    return convertUnion(branches, node, context, where, depth);
  }
  const inferred = typesOf(node) ?? inferTypes(node);
  const types = root && inferred.length === 0 ? ["object"] : inferred; // a root without keywords: a tool without fields
  const nullable = types.includes("null");
  const concrete = types.filter((type) => type !== "null");
  if (concrete.length > 1)
    return convertUnion(
      [...concrete.map((type) => ({ ...omitAnnotations(node), type })), ...(nullable ? [{ type: "null" }] : [])],
      node,
      context,
      where,
      depth,
    );
  const type = concrete[0];
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
  if (values) return convertEnum(values, type, node, nullable);
  if (!type) return { hint: "any JSON value" };
  if (type === "object") return convertObject(node, nullable, context, where, depth, root);
  if (type === "array") return convertArray(node, nullable, context, where, depth);
  if (!["string", "number", "integer", "boolean"].includes(type)) return { hint: "any JSON value" };
  const notes = boundNotes(node);
  const schema: Node = { type: nullable ? [type, "null"] : type };
  if (typeof node.format === "string") {
    if (KEPT_FORMATS[type]?.includes(node.format)) schema.format = node.format;
    else notes.unshift(`format ${node.format}`);
  }
  if (type === "string" && typeof node.minLength === "number" && node.minLength > 0) schema.minLength = node.minLength;
  const description = describe(node, notes);
  if (description) schema.description = description;
  return { schema, jsonText: [] };
}

/** A node without `type`, typed by the keywords it uses. */
function inferTypes(node: Node): string[] {
  if (node.properties !== undefined || node.additionalProperties !== undefined || node.required !== undefined) return ["object"];
  if (node.items !== undefined || node.prefixItems !== undefined) return ["array"];
  if (node.pattern !== undefined || node.minLength !== undefined || node.maxLength !== undefined || node.format !== undefined) return ["string"];
  if (node.minimum !== undefined || node.maximum !== undefined || node.multipleOf !== undefined) return ["number"];
  return [];
}

/** Gemini takes enums of strings only; numbers and booleans keep their type and list their values in words. */
function convertEnum(values: unknown[], type: string | undefined, node: Node, nullable: boolean): Converted {
  const nullAllowed = nullable || values.includes(null);
  const kept = values.filter((value) => value !== null);
  const kind = kept.every((value) => typeof value === "string")
    ? "string"
    : kept.every((value) => typeof value === "number")
      ? kept.every(Number.isInteger) && type === "integer"
        ? "integer"
        : "number"
      : kept.every((value) => typeof value === "boolean")
        ? "boolean"
        : undefined;
  if (kept.length === 0) return { hint: "null" };
  if (!kind) return { hint: `one of ${kept.map(quote).join(", ")}` };
  const schema: Node = { type: nullAllowed ? [kind, "null"] : kind };
  const notes = kind === "string" ? [] : [`one of ${kept.map(quote).join(", ")}`];
  if (kind === "string") schema.enum = kept;
  const description = describe(node, notes);
  if (description) schema.description = description;
  return { schema, jsonText: [] };
}

function convertObject(node: Node, nullable: boolean, context: Context, where: string, depth: number, root: boolean): Converted {
  const declared = isObject(node.properties) ? Object.entries(node.properties).filter(([, value]) => value !== false) : [];
  // A tool without fields (the usual `{ type: "object" }` or `properties: {}`): declared without parameters.
  if (declared.length === 0 && root) return { schema: { type: "object", properties: {} }, jsonText: [] };
  if (declared.length === 0) {
    if (node.additionalProperties === false)
      return { schema: { type: nullable ? ["object", "null"] : "object", ...(describe(node, []) ? { description: describe(node, []) } : {}) }, jsonText: [] };
    const values =
      isObject(node.additionalProperties) && typeof node.additionalProperties.type === "string" ? ` with ${node.additionalProperties.type} values` : "";
    return { hint: `a JSON object${values}` };
  }
  const properties: Node = {};
  const jsonText: ArgumentStep[][] = [];
  for (const [name, value] of declared) {
    const placed = place(convert(value, context, child(where, `properties.${name}`), depth + 1), value);
    setOwn(properties, name, placed.schema);
    jsonText.push(...placed.jsonText.map((path) => [name, ...path]));
  }
  const schema: Node = { type: nullable ? ["object", "null"] : "object", properties };
  const required = Array.isArray(node.required) ? node.required.filter((name) => typeof name === "string" && Object.hasOwn(properties, name)) : [];
  if (required.length > 0) schema.required = required;
  const description = describe(node, []);
  if (description) schema.description = description;
  return { schema, jsonText };
}

function convertArray(node: Node, nullable: boolean, context: Context, where: string, depth: number): Converted {
  if (Array.isArray(node.items) || node.prefixItems !== undefined) return { hint: "a JSON array", quoteSchema: true };
  const items = place(convert(node.items, context, child(where, "items"), depth + 1), node.items);
  const schema: Node = { type: nullable ? ["array", "null"] : "array", items: items.schema };
  const description = describe(node, boundNotes(node));
  if (description) schema.description = description;
  return { schema, jsonText: items.jsonText.map((path) => [null, ...path]) };
}

/** anyOf and oneOf: Gemini's anyOf, unless a branch needs JSON text, which then holds the whole value. */
function convertUnion(branches: unknown[], node: Node, context: Context, where: string, depth: number): Converted {
  const isNull = (branch: unknown) =>
    isObject(branch) &&
    (branch.type === "null" || branch.const === null || (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null));
  const nullable = branches.some(isNull);
  const kept = branches.filter((branch) => !isNull(branch));
  const converted = kept.map((branch, index) => convert(branch, context, child(where, `anyOf.${index}`), depth + 1));
  const description = describe(node, []);
  if (converted.length === 0) return { hint: "null" };
  if (converted.some((branch) => "hint" in branch || branch.jsonText.length > 0)) return { hint: "one of several forms", quoteSchema: true };
  const schemas = converted.map((branch) => (branch as { schema: Node }).schema);
  const strings = schemas.every((schema) => Array.isArray(schema.enum) && !schema.description);
  if (strings)
    return {
      schema: {
        type: nullable ? ["string", "null"] : "string",
        enum: [...new Set(schemas.flatMap((schema) => schema.enum as string[]))],
        ...(description ? { description } : {}),
      },
      jsonText: [],
    };
  if (schemas.length === 1) {
    const only = schemas[0]!;
    const type = nullable && typeof only.type === "string" ? [only.type, "null"] : only.type;
    const words = [description, only.description].filter(Boolean).join(" ");
    return { schema: { ...only, ...(type ? { type } : {}), ...(words ? { description: words } : {}) }, jsonText: [] };
  }
  const flat = schemas.flatMap((schema) => (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1 ? (schema.anyOf as Node[]) : [schema]));
  return { schema: { anyOf: [...flat, ...(nullable ? [{ type: "null" }] : [])], ...(description ? { description } : {}) }, jsonText: [] };
}

/** A converted node in its parent: JSON text becomes a described string the arguments are decoded from. */
function place(converted: Converted, original: unknown): { schema: Node; jsonText: ArgumentStep[][] } {
  if (!("hint" in converted)) return converted;
  const node = isObject(original) ? original : {};
  const shown = JSON.stringify(original ?? {});
  const shape = converted.quoteSchema && shown.length <= MAX_QUOTED_SCHEMA && !shown.includes('"$ref"') ? `, as this JSON Schema describes: ${shown}` : "";
  const description = describe(node, [`give it as JSON text: ${converted.hint}${shape}`]);
  return { schema: { type: "string", description }, jsonText: [[]] };
}

/** Root anyOf/oneOf of object forms: one object with every form's fields, requiring those all forms require. */
function mergeRootForms(schema: Node): Node {
  const forms = (schema.anyOf as Node[]).filter((form) => form.type === "object" || (Array.isArray(form.type) && form.type.includes("object")));
  if (forms.length !== (schema.anyOf as Node[]).length) return schema;
  let properties: Node = {};
  for (const form of forms) properties = { ...(form.properties as Node), ...properties };
  const required = forms.map((form) => (form.required as string[] | undefined) ?? []).reduce((all, names) => all.filter((name) => names.includes(name)));
  const shapes = forms.map((form, index) => `${index + 1}) ${Object.keys((form.properties as Node) ?? {}).join(", ")}`).join("; ");
  const description = [schema.description, `Give the fields of one of these forms: ${shapes}.`].filter(Boolean).join(" ");
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), description };
}

/** A tool's input schema as Gemini takes it, or why it cannot be (in words for the user, and for the administrator). */
export function toGeminiToolSchema(input: unknown): GeminiToolSchemaResult {
  try {
    if (!isObject(input)) throw new Refusal("its input description is not valid", `The input schema is ${JSON.stringify(input)}, not an object`);
    const context: Context = { root: input, expanding: ["#"], nodes: 0 }; // "#" is the root, being converted
    const converted = convert(input, context, "", 0, true);
    if ("hint" in converted) throw new Refusal("its input has no named fields Gemini can describe", `The input schema is ${converted.hint}`);
    let parameters = converted.schema;
    if (Array.isArray(parameters.anyOf)) parameters = mergeRootForms(parameters);
    const type = Array.isArray(parameters.type) ? parameters.type.find((name) => name !== "null") : parameters.type;
    if (type !== "object")
      throw new Refusal("its input is not a set of named fields", `The input schema's type is ${JSON.stringify(parameters.type ?? "a union")}, not "object"`);
    parameters = { ...parameters, type: "object" };
    return { ok: true, schema: { parameters: parameters as JsonSchema, jsonText: converted.jsonText } };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason, detail: error.detail };
    if (error instanceof URIError) return { ok: false, reason: "its input refers to a definition that is not in it", detail: error.message };
    // A schema malformed in a way not foreseen costs its tool, never the turn.
    return { ok: false, reason: "its input description is not valid", detail: (error as Error)?.message ?? String(error) };
  }
}

function decode(value: unknown, path: ArgumentStep[], index: number): unknown {
  if (index === path.length) {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value; // not JSON: the tool sees the text and says what it expected
    }
  }
  const step = path[index];
  if (step === undefined) return value;
  if (step === null) return Array.isArray(value) ? value.map((item) => decode(item, path, index + 1)) : value;
  if (!isObject(value) || !(step in value)) return value;
  return { ...value, [step]: decode(value[step], path, index + 1) };
}

/** The model's arguments with the values it wrote as JSON text parsed back, as the tool's own schema wants them. */
export function decodeToolArguments(args: Record<string, unknown>, jsonText: readonly ArgumentStep[][]): Record<string, unknown> {
  return jsonText.reduce((decoded, path) => decode(decoded, path, 0) as Record<string, unknown>, args);
}
