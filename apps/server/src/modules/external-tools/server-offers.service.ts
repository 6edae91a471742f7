import { EXTERNAL_TOOL_TEXTS, type ReadResourceResponse, type ResourceRef, type ToolPrompt, type ToolResourcesResponse } from "@sage/contracts/external-tools";
import { AppError, conflict, notFound } from "../../http/app-error.ts";
import { McpCallError, McpSignInNeeded } from "../../providers/mcp/mcp-hub.ts";
import type { TurnResource } from "../assistant/assistant.module.ts";
import type { ServerDirectory, ToolServer } from "./server-directory.ts";

/** Text of one resource read for a turn is cut here: a resource is context, not a whole archive. */
const MAX_RESOURCE_CHARS = 50_000;

type Contents = { uri: string; mimeType?: string; text?: string; blob?: string }[];

const optional = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;

/** A server's failure as the user is told it: sign in first, or what went wrong, never a bare 500. */
function serverProblem(server: ToolServer, error: unknown): never {
  if (error instanceof McpSignInNeeded) throw conflict(EXTERNAL_TOOL_TEXTS.signInNeeded(server.name), "sign_in_needed");
  if (error instanceof McpCallError) throw new AppError("tool_server_failed", 502, EXTERNAL_TOOL_TEXTS.serverFailed(server.name, error.message));
  throw error;
}

/** A prompt's messages as the text the composer is filled with. */
function promptText(messages: { role: string; content: { type: string; text?: string; resource?: { text?: string; uri?: string } } }[]): string {
  return messages
    .map((message) => {
      const { content } = message;
      if (content.type === "text") return content.text ?? "";
      if (content.type === "resource") return content.resource?.text ?? content.resource?.uri ?? "";
      return `[${content.type}]`;
    })
    .filter((text) => text.trim() !== "")
    .join("\n\n");
}

/**
 * What the user's servers offer besides tools (decision 080): their resources and templates (the paperclip's
 * "From a connected tool"), reading one, and their prompts (the composer's "/").
 */
export function createServerOffersService(deps: { directory: ServerDirectory; log(message: string, error?: unknown): void }) {
  async function server(userId: number, serverId: string): Promise<ToolServer> {
    const found = await deps.directory.find(userId, serverId);
    if (!found) throw notFound(EXTERNAL_TOOL_TEXTS.serverNotFound, "tool_server_not_found");
    return found;
  }

  async function read(userId: number, ref: ResourceRef): Promise<{ server: ToolServer; contents: Contents }> {
    const found = await server(userId, ref.serverId);
    const result = await found.connection.readResource(ref.uri).catch((error: unknown) => {
      // A resource the server does not have is the user's 404, not the server's failure.
      if (error instanceof McpCallError && /not found|unknown resource|-32002/i.test(error.message))
        throw notFound(EXTERNAL_TOOL_TEXTS.resourceNotFound, "resource_not_found");
      return serverProblem(found, error);
    });
    // Told of its changes from now on, where the server allows (the listing shows when it last changed).
    void found.connection.subscribe(ref.uri).catch(() => undefined);
    return { server: found, contents: result.contents as Contents };
  }

  return {
    async resources(userId: number): Promise<ToolResourcesResponse> {
      const servers = await deps.directory.started(userId, "briefly");
      return {
        resources: servers.flatMap((item) =>
          item.connection
            .catalog()
            .resources.map((resource) => optional({ serverId: item.id, server: item.name, ...resource, updatedAt: item.connection.updatedAt(resource.uri) })),
        ),
        templates: servers.flatMap((item) => item.connection.catalog().templates.map((template) => ({ serverId: item.id, server: item.name, ...template }))),
      };
    },

    async readResource(userId: number, ref: ResourceRef): Promise<ReadResourceResponse> {
      const { contents } = await read(userId, ref);
      return {
        serverId: ref.serverId,
        uri: ref.uri,
        contents: contents.map((item) =>
          optional({
            uri: item.uri,
            mimeType: item.mimeType,
            text: item.text,
            // Binary content is described, not sent: the chat has no viewer for it.
            size: item.blob !== undefined ? Math.floor((item.blob.length * 3) / 4) : undefined,
          }),
        ),
      };
    },

    /** The resources a message attaches, read as the turn's context (binary parts named, not read). */
    async forTurn(userId: number, refs: readonly ResourceRef[]): Promise<TurnResource[]> {
      return Promise.all(
        refs.map(async (ref) => {
          const { server: found, contents } = await read(userId, ref);
          const listed = found.connection.catalog().resources.find((resource) => resource.uri === ref.uri);
          const text = contents
            .map((item) => item.text ?? `[binary content${item.mimeType ? ` (${item.mimeType})` : ""}]`)
            .join("\n\n")
            .slice(0, MAX_RESOURCE_CHARS);
          return { serverId: found.id, server: found.name, uri: ref.uri, name: listed?.title ?? listed?.name ?? ref.uri, text };
        }),
      );
    },

    async prompts(userId: number): Promise<{ prompts: ToolPrompt[] }> {
      const servers = await deps.directory.started(userId, "briefly");
      return { prompts: servers.flatMap((item) => item.connection.catalog().prompts.map((prompt) => ({ serverId: item.id, server: item.name, ...prompt }))) };
    },

    async getPrompt(userId: number, request: { serverId: string; name: string; arguments: Record<string, string> }): Promise<{ text: string }> {
      const found = await server(userId, request.serverId);
      const prompt = found.connection.catalog().prompts.find((item) => item.name === request.name);
      if (!prompt) throw notFound(EXTERNAL_TOOL_TEXTS.promptNotFound, "prompt_not_found");
      const missing = prompt.arguments.filter((argument) => argument.required && !request.arguments[argument.name]?.trim());
      if (missing.length > 0) throw new AppError("validation_error", 400, `Fill in ${missing.map((argument) => argument.name).join(", ")}`);
      const result = await found.connection.getPrompt(request.name, request.arguments).catch((error: unknown) => serverProblem(found, error));
      return { text: promptText(result.messages as Parameters<typeof promptText>[0]) };
    },
  };
}

export type ServerOffersService = ReturnType<typeof createServerOffersService>;
