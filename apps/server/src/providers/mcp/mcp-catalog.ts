import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolAnnotations } from "@sage/contracts/external-tools";
import type { JsonSchema } from "../llm/llm.ts";

/** A tool as its server describes it. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  /** The shape of its structured results, which every result is checked against. */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  /** The server's readOnlyHint (a hint: the module decides whether it spares a card). */
  readOnly: boolean;
  /** It runs only as an MCP task, which SAGE does not run (decision 080). */
  needsTasks: boolean;
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplateInfo extends Omit<McpResourceInfo, "uri"> {
  uriTemplate: string;
}

export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

/** Everything a server offers, as last listed. */
export interface McpCatalog {
  tools: McpToolInfo[];
  resources: McpResourceInfo[];
  templates: McpResourceTemplateInfo[];
  prompts: McpPromptInfo[];
}

export type CatalogPart = "tools" | "resources" | "prompts";

export const emptyCatalog = (): McpCatalog => ({ tools: [], resources: [], templates: [], prompts: [] });

/** A server paging without end must not hold a start forever. */
const MAX_PAGES = 50;

const optional = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined && item !== "")) as T;

/** Every page of a list (servers may page tools, resources and prompts with a cursor). */
async function allPages<T>(list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

type RequestOptions = { timeout: number };

export async function listTools(client: Client, options: RequestOptions): Promise<McpToolInfo[]> {
  const tools = await allPages(async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined, options);
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  return tools.map((tool) => {
    const annotations: ToolAnnotations = optional({
      title: tool.annotations?.title,
      readOnlyHint: tool.annotations?.readOnlyHint,
      destructiveHint: tool.annotations?.destructiveHint,
      idempotentHint: tool.annotations?.idempotentHint,
      openWorldHint: tool.annotations?.openWorldHint,
    });
    return optional({
      name: tool.name,
      title: tool.title ?? tool.annotations?.title,
      description: tool.description ?? tool.title ?? tool.annotations?.title ?? "",
      inputSchema: tool.inputSchema as JsonSchema,
      outputSchema: tool.outputSchema as JsonSchema | undefined,
      annotations,
      readOnly: annotations.readOnlyHint === true,
      needsTasks: tool.execution?.taskSupport === "required",
    });
  });
}

export async function listResources(client: Client, options: RequestOptions): Promise<Pick<McpCatalog, "resources" | "templates">> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
  const [resources, templates] = await Promise.all([
    allPages(async (cursor) => {
      const page = await client.listResources(cursor ? { cursor } : undefined, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    }),
    // Templates are optional in the specification: a server without them answers "method not found".
    allPages(async (cursor) => {
      const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }).catch(() => []),
  ]);
  return {
    resources: resources.map((item) => optional({ uri: item.uri, name: item.name, title: item.title, description: item.description, mimeType: item.mimeType })),
    templates: templates.map((item) =>
      optional({ uriTemplate: item.uriTemplate, name: item.name, title: item.title, description: item.description, mimeType: item.mimeType }),
    ),
  };
}

export async function listPrompts(client: Client, options: RequestOptions): Promise<McpPromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const prompts = await allPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
  return prompts.map((prompt) =>
    optional({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: (prompt.arguments ?? []).map((argument) =>
        optional({ name: argument.name, description: argument.description, required: argument.required === true }),
      ),
    }),
  );
}

/** The whole catalog; a failure to list resources or prompts leaves them empty rather than failing the server. */
export async function listCatalog(client: Client, options: RequestOptions, log: (message: string, error?: unknown) => void): Promise<McpCatalog> {
  const [tools, resources, prompts] = await Promise.all([
    listTools(client, options),
    listResources(client, options).catch((error: unknown) => {
      log("listing the server's resources failed", error);
      return { resources: [], templates: [] };
    }),
    listPrompts(client, options).catch((error: unknown) => {
      log("listing the server's prompts failed", error);
      return [];
    }),
  ]);
  return { tools, ...resources, prompts };
}
