import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { JsonSchema } from "../llm/llm.ts";

/** A link to one of the server's resources that a tool gave back (MCP `resource_link`). */
export interface McpResourceLink {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** What a call gave back: its text for the model, and for the chat its structured data and resource links. */
export interface McpCallResult {
  text: string;
  isError: boolean;
  /** `structuredContent`, checked against the tool's outputSchema. */
  structured?: Record<string, unknown>;
  links?: McpResourceLink[];
}

type ContentItem = {
  type?: string;
  text?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  resource?: { text?: string; uri?: string };
};

const linkOf = (item: ContentItem): McpResourceLink =>
  Object.fromEntries(
    Object.entries({
      uri: item.uri ?? "",
      name: item.name || item.uri || "",
      title: item.title,
      description: item.description,
      mimeType: item.mimeType,
    }).filter(([, value]) => value !== undefined),
  ) as unknown as McpResourceLink;

function textOf(content: readonly ContentItem[]): string {
  return content
    .map((item) => {
      if (item?.type === "text") return item.text ?? "";
      if (item?.type === "resource") return item.resource?.text ?? item.resource?.uri ?? "";
      if (item?.type === "resource_link") return `[Resource: ${item.name || item.uri} (${item.uri})]`;
      return `[${item?.type ?? "unknown"} content]`;
    })
    .join("\n");
}

/** A tool's result disagreed with its own output schema: the result is not trusted (the call fails, saying so). */
export class McpOutputError extends Error {}

/** Checks structured results against the tools' output schemas; each schema is compiled once. */
export function createOutputChecker(validator: jsonSchemaValidator) {
  const compiled = new WeakMap<object, JsonSchemaValidator<unknown>>();
  return (schema: JsonSchema, value: unknown): string | undefined => {
    let check = compiled.get(schema);
    if (!check) {
      check = validator.getValidator<unknown>(schema as never);
      compiled.set(schema, check);
    }
    const result = check(value);
    return result.valid ? undefined : result.errorMessage;
  };
}
export type OutputChecker = ReturnType<typeof createOutputChecker>;

/**
 * A `tools/call` result in SAGE's terms. A tool with an outputSchema must give structured content that matches it
 * (the MCP specification: clients SHOULD validate); one that does not is an error saying so, not data shown as if sound.
 */
export function callResult(
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown },
  outputSchema: JsonSchema | undefined,
  check: OutputChecker,
): McpCallResult {
  const content = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const isError = result.isError === true;
  const structured =
    result.structuredContent && typeof result.structuredContent === "object" && !Array.isArray(result.structuredContent)
      ? (result.structuredContent as Record<string, unknown>)
      : undefined;
  if (outputSchema && !isError) {
    if (!structured) throw new McpOutputError("The tool promised structured data but gave none");
    const problem = check(outputSchema, structured);
    if (problem) throw new McpOutputError(`The tool's structured data does not match its own schema: ${problem}`);
  }
  const links = content.filter((item) => item?.type === "resource_link" && typeof item.uri === "string").map(linkOf);
  const text = textOf(content) || (structured ? JSON.stringify(structured) : "");
  return { text, isError, ...(structured ? { structured } : {}), ...(links.length > 0 ? { links } : {}) };
}
