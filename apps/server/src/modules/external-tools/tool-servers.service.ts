import { EXTERNAL_TOOL_TEXTS, type AddRemoteServerRequest, type RemoteServer } from "@sage/contracts/external-tools";
import { badRequest, conflict, notFound } from "../../http/app-error.ts";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { checkRemoteAddress, McpBlockedAddress } from "../../providers/mcp/mcp-fetch.ts";
import type { ServerDirectory, ToolServer } from "./server-directory.ts";
import type { ToolServersRepo } from "./tool-servers.repo.ts";

/** The sign-in of a user to a remote server, as this service needs it (server-sign-in.ts). */
export interface ServerSignInPort {
  /** Where the user starts signing in: SAGE's address that sends them to the server's authorization server. */
  signInUrl(serverId: string): string;
  /** Revokes the user's tokens at the authorization server (where it allows) and forgets everything kept. */
  forget(userId: number, server: { userId: number; id: string; url: string; oauth?: ToolServer["oauth"] }): Promise<void>;
}

/**
 * The remote servers a user adds by URL (decision 080): POST/GET/DELETE /api/tools/servers, and the user's trust in
 * any server's hints. A server is reached under the private-address rule; one answering 401 asks the user to sign in.
 */
export function createToolServersService(deps: {
  directory: ServerDirectory;
  repo: ToolServersRepo;
  rule: PrivateAddressRule;
  signIns?: ServerSignInPort;
  log(message: string, error?: unknown): void;
}) {
  async function describe(userId: number, server: ToolServer): Promise<RemoteServer> {
    const status = server.connection.status();
    const trusted = (await deps.repo.trust(userId)).get(server.id) ?? server.trustedByDefault;
    const base = { id: server.id, name: server.name, url: server.url ?? "", trusted };
    if (status.state === "connected") return { ...base, status: "connected" };
    if (status.state === "sign-in-needed") {
      return {
        ...base,
        status: "sign-in-needed",
        ...(deps.signIns ? { signInUrl: deps.signIns.signInUrl(server.id) } : {}),
        ...(status.error ? { error: status.error } : {}),
      };
    }
    return { ...base, status: "error", error: status.error ?? "Not connected yet" };
  }

  /** The server's first connection, waited for: connected, asking for a sign-in, or failed with the reason. */
  async function connected(userId: number, server: ToolServer): Promise<RemoteServer> {
    await server.connection.ensure().catch(() => undefined);
    return describe(userId, server);
  }

  return {
    async add(userId: number, request: AddRemoteServerRequest): Promise<RemoteServer> {
      const servers = await deps.directory.forUser(userId);
      if (servers.some((server) => server.name.toLowerCase() === request.name.toLowerCase()))
        throw conflict(EXTERNAL_TOOL_TEXTS.nameTaken(request.name), "name_taken");
      try {
        await checkRemoteAddress(request.url, deps.rule);
      } catch (error) {
        if (error instanceof McpBlockedAddress) throw badRequest(EXTERNAL_TOOL_TEXTS.privateAddress, "private_address");
        // A name that does not resolve is saved and shown failed with the reason: the user may be offline.
      }
      const row = await deps.repo.add(userId, request);
      const server = await deps.directory.find(userId, row.id);
      return connected(userId, server!);
    },

    async list(userId: number): Promise<{ servers: RemoteServer[] }> {
      const own = (await deps.directory.forUser(userId)).filter((server) => server.source === "user" || server.signsIn);
      return { servers: await Promise.all(own.map((server) => connected(userId, server))) };
    },

    /** Removes a server the user added: its connection closes, its token is revoked and forgotten. */
    async remove(userId: number, serverId: string) {
      const server = await deps.directory.find(userId, serverId);
      if (!server || server.source !== "user") throw notFound(EXTERNAL_TOOL_TEXTS.serverNotFound, "tool_server_not_found");
      await deps.directory.forget(userId, serverId);
      await deps.signIns
        ?.forget(userId, { userId, id: serverId, url: server.url ?? "" })
        .catch((error: unknown) => deps.log("revoking a tool server's token failed", error));
      await deps.repo.remove(userId, serverId);
    },

    async setTrust(userId: number, serverId: string, trusted: boolean) {
      const server = await deps.directory.find(userId, serverId);
      if (!server) throw notFound(EXTERNAL_TOOL_TEXTS.serverNotFound, "tool_server_not_found");
      await deps.repo.saveTrust(userId, serverId, trusted);
      return { id: serverId, trusted };
    },
  };
}

export type ToolServersService = ReturnType<typeof createToolServersService>;
