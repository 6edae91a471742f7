/**
 * What the real Gemini API (v1beta, the version @ai-sdk/google calls) refuses in a request's function declarations,
 * so the fake answers 400 INVALID_ARGUMENT where Google would, in Google's words. Sources (decision 029):
 * - The `Schema` object, https://ai.google.dev/api/caching#Schema (the v1beta proto, as in
 *   @google-ai/generativelanguage's `v1beta.ISchema`): its fields are the only names the JSON parser knows; any
 *   other (`$ref`, `$defs`, `oneOf`, `allOf`, `const`, `additionalProperties`, `$schema`, `exclusiveMinimum` ...)
 *   is "Unknown name ... Cannot find field", a list where one value belongs is "Proto field is not repeating",
 *   and an enum value that is not a string is "Invalid value ... (TYPE_STRING)" (errors quoted in
 *   nanbingxyz/5ire#42, danny-avila/LibreChat#6971, hideya/langchain-mcp-tools-ts#36,
 *   microsoft/azure-devops-mcp#145, taylorwilsdon/google_workspace_mcp#1099).
 * - The checks after parsing, each quoted from an answer of the API: a type is required unless `anyOf` is used
 *   (LibreChat#6971); `properties` only on OBJECT (anomalyco/opencode#11888); every `required` name defined
 *   (iBUHub/AIStudioToAPI#154); `enum` only on STRING (musistudio/llms#20); a STRING's format only 'enum' or
 *   'date-time' (google-gemini/gemini-cli#2237, on gemini-2.5-pro); a root OBJECT needs properties
 *   (langchain-ai/langchainjs#7935, on gemini-2.0-flash).
 * `parametersJsonSchema` (plain JSON Schema, documented beside `parameters`) is not checked: SAGE never sends it.
 */

const SCHEMA_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const TYPES = new Set(["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);
const STRING_FORMATS = new Set(["enum", "date-time"]);

/** The proto JSON parser takes a field by its JSON name or its proto name: `anyOf` or `any_of`. */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const field = (node: Record<string, unknown>, name: string) => node[name] ?? node[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export interface GeminiErrorBody {
  error: { code: 400; message: string; status: "INVALID_ARGUMENT"; details?: unknown[] };
}

/** The JSON parser's complaints about one Schema node and those under it; `at` is the proto path. */
function parseErrors(node: unknown, at: string, out: { field: string; description: string }[]) {
  const unknown = (name: string, why = "Cannot find field.") =>
    out.push({ field: at, description: `Invalid JSON payload received. Unknown name "${name}" at '${at}': ${why}` });
  if (!isObject(node)) {
    out.push({ field: at, description: `Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), ${JSON.stringify(node)}` });
    return;
  }
  for (const name of Object.keys(node)) if (!SCHEMA_FIELDS.has(camel(name))) unknown(name);
  const type = node.type;
  if (Array.isArray(type)) unknown("type", "Proto field is not repeating, cannot start list.");
  else if (type !== undefined && (typeof type !== "string" || !TYPES.has(type.toUpperCase()))) {
    out.push({
      field: `${at}.type`,
      description: `Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(type)}`,
    });
  }
  const values = node.enum;
  if (values !== undefined) {
    if (!Array.isArray(values)) unknown("enum", "Starting an object on a repeated field.");
    else
      values.forEach(
        (value, index) =>
          typeof value !== "string" &&
          out.push({ field: `${at}.enum[${index}]`, description: `Invalid value at '${at}.enum[${index}]' (TYPE_STRING), ${JSON.stringify(value)}` }),
      );
  }
  const items = node.items;
  if (Array.isArray(items)) unknown("items", "Proto field is not repeating, cannot start list.");
  else if (items !== undefined) parseErrors(items, `${at}.items`, out);
  const properties = node.properties;
  if (properties !== undefined) {
    if (!isObject(properties)) unknown("properties", "Proto field is not repeating, cannot start list.");
    else Object.values(properties).forEach((value, index) => parseErrors(value, `${at}.properties[${index}].value`, out));
  }
  const anyOf = field(node, "anyOf");
  if (anyOf !== undefined) {
    if (!Array.isArray(anyOf)) unknown("anyOf", "Starting an object on a repeated field.");
    else anyOf.forEach((value, index) => parseErrors(value, `${at}.any_of[${index}]`, out));
  }
}

/** The checks run on a parsed Schema; `at` is the path in Google's words, properties by name. */
function semanticErrors(node: Record<string, unknown>, at: string, root: boolean, out: string[]) {
  const type = typeof node.type === "string" ? node.type.toUpperCase() : undefined;
  const properties = isObject(node.properties) ? node.properties : undefined;
  const anyOf = field(node, "anyOf") as unknown[] | undefined;
  if (!type && !anyOf) out.push(`${at}.type: must be specified when not using one_of, any_of or all_of fields`);
  if (properties && type !== "OBJECT") out.push(`${at}.properties: only allowed for OBJECT type`);
  if (root && type === "OBJECT" && Object.keys(properties ?? {}).length === 0) out.push(`${at}.properties: should be non-empty for OBJECT type`);
  const required = Array.isArray(node.required) ? node.required : [];
  required.forEach((name, index) => !(properties && Object.hasOwn(properties, String(name))) && out.push(`${at}.required[${index}]: property is not defined`));
  if (node.enum !== undefined && type !== "STRING") out.push(`${at}.enum: only allowed for STRING type`);
  if (type === "STRING" && typeof node.format === "string" && !STRING_FORMATS.has(node.format))
    out.push(`${at}.format: only 'enum' and 'date-time' are supported for STRING type`);
  for (const [name, value] of Object.entries(properties ?? {})) semanticErrors(value as Record<string, unknown>, `${at}.properties[${name}]`, false, out);
  if (isObject(node.items)) semanticErrors(node.items, `${at}.items`, false, out);
  anyOf?.forEach((value, index) => semanticErrors(value as Record<string, unknown>, `${at}.any_of[${index}]`, false, out));
}

/** The 400 the real API would answer for this generateContent body's function declarations, or undefined. */
export function functionDeclarationErrors(body: unknown): GeminiErrorBody | undefined {
  const tools = isObject(body) && Array.isArray(body.tools) ? body.tools : [];
  const declarations = tools.flatMap((tool, toolIndex) => {
    const list = isObject(tool) ? field(tool, "functionDeclarations") : undefined;
    return Array.isArray(list) ? list.map((declaration, index) => ({ declaration, at: `tools[${toolIndex}].function_declarations[${index}]` })) : [];
  });
  const violations: { field: string; description: string }[] = [];
  for (const { declaration, at } of declarations) {
    if (isObject(declaration) && declaration.parameters !== undefined) parseErrors(declaration.parameters, `${at}.parameters`, violations);
  }
  if (violations.length > 0) {
    const details = [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations }];
    return { error: { code: 400, message: violations.map((violation) => violation.description).join("\n"), status: "INVALID_ARGUMENT", details } };
  }
  const problems: string[] = [];
  for (const { declaration, at } of declarations) {
    if (isObject(declaration) && isObject(declaration.parameters))
      semanticErrors(declaration.parameters, `GenerateContentRequest.${at}.parameters`, true, problems);
  }
  return problems.length > 0 ? { error: { code: 400, message: problems.map((problem) => `* ${problem}\n`).join(""), status: "INVALID_ARGUMENT" } } : undefined;
}

/**
 * The 400 the real API would answer for the body's structured-output settings (`generationConfig.responseSchema`,
 * a Schema like a function's parameters, and `responseMimeType`), or undefined. A response schema without the JSON
 * MIME type is refused, as Google documents: "responseSchema ... requires responseMimeType application/json".
 */
export function responseSchemaErrors(body: unknown): GeminiErrorBody | undefined {
  const config = isObject(body) ? field(body, "generationConfig") : undefined;
  if (!isObject(config)) return undefined;
  const schema = field(config, "responseSchema");
  if (schema === undefined) return undefined;
  const at = "generation_config.response_schema";
  const violations: { field: string; description: string }[] = [];
  parseErrors(schema, at, violations);
  if (violations.length > 0) {
    const details = [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations }];
    return { error: { code: 400, message: violations.map((violation) => violation.description).join("\n"), status: "INVALID_ARGUMENT", details } };
  }
  const problems: string[] = [];
  const mime = field(config, "responseMimeType");
  if (mime !== "application/json" && mime !== "text/x.enum")
    problems.push("GenerateContentRequest.generation_config.response_mime_type: response_schema requires response_mime_type application/json or text/x.enum");
  semanticErrors(schema as Record<string, unknown>, `GenerateContentRequest.${at}`, true, problems);
  return problems.length > 0 ? { error: { code: 400, message: problems.map((problem) => `* ${problem}\n`).join(""), status: "INVALID_ARGUMENT" } } : undefined;
}

/**
 * Why a value could not be what Gemini writes for this response schema (its output always conforms), or undefined.
 * A scripted reply that does not conform is a mistake in the test, never something a caller must survive.
 */
export function schemaMismatch(value: unknown, schema: Record<string, unknown>, at = "$"): string | undefined {
  if (value === null) return schema.nullable === true ? undefined : `${at} is null but the schema is not nullable`;
  const type = typeof schema.type === "string" ? schema.type.toUpperCase() : undefined;
  const anyOf = field(schema, "anyOf");
  if (Array.isArray(anyOf))
    return anyOf.some((option) => schemaMismatch(value, option as Record<string, unknown>, at) === undefined) ? undefined : `${at} matches none of anyOf`;
  switch (type) {
    case "STRING":
      if (typeof value !== "string") return `${at} should be a string`;
      if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return `${at} should be one of ${JSON.stringify(schema.enum)}`;
      return undefined;
    case "NUMBER":
      return typeof value === "number" ? undefined : `${at} should be a number`;
    case "INTEGER":
      return Number.isInteger(value) ? undefined : `${at} should be an integer`;
    case "BOOLEAN":
      return typeof value === "boolean" ? undefined : `${at} should be a boolean`;
    case "ARRAY":
      if (!Array.isArray(value)) return `${at} should be an array`;
      for (const [index, item] of value.entries()) {
        const problem = isObject(schema.items) ? schemaMismatch(item, schema.items, `${at}[${index}]`) : undefined;
        if (problem) return problem;
      }
      return undefined;
    case "OBJECT": {
      if (!isObject(value)) return `${at} should be an object`;
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const name of Array.isArray(schema.required) ? schema.required : []) if (!(String(name) in value)) return `${at}.${String(name)} is required`;
      for (const [name, item] of Object.entries(value)) {
        if (!Object.hasOwn(properties, name)) return `${at}.${name} is not in the schema`;
        const problem = schemaMismatch(item, properties[name] as Record<string, unknown>, `${at}.${name}`);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The smallest value that conforms (what the fake answers in JSON mode when nothing was scripted). */
export function emptyValue(schema: Record<string, unknown>): unknown {
  const type = typeof schema.type === "string" ? schema.type.toUpperCase() : undefined;
  if (type === "OBJECT") {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    return Object.fromEntries(required.map((name) => [name, emptyValue((properties[name] ?? {}) as Record<string, unknown>)]));
  }
  if (type === "ARRAY") return [];
  if (type === "STRING") return Array.isArray(schema.enum) ? schema.enum[0] : "";
  if (type === "NUMBER" || type === "INTEGER") return 0;
  if (type === "BOOLEAN") return false;
  return null;
}
