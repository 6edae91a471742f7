import type { McpServerEntry, McpSignInSettings } from "../../providers/mcp/mcp-config.ts";
import type { McpConnection, McpHub } from "../../providers/mcp/mcp-hub.ts";
import { signsIn } from "../../providers/mcp/mcp-hub.ts";
import type { ToolServersRepo } from "./tool-servers.repo.ts";

/** One tool server as one user sees it. */
export interface ToolServer {
  /** `config:<name>` for the administrator's servers, else the id of the user's own. */
  id: string;
  name: string;
  source: "config" | "user";
  transport: "stdio" | "http";
  url?: string;
  connection: McpConnection;
  /** Whether a user who never chose trusts the server's hints. */
  trustedByDefault: boolean;
  /** Each user signs in to it (their own token). */
  signsIn: boolean;
  /** The administrator's registration with its authorization server (mcp.json `oauth`). */
  oauth?: McpSignInSettings;
}

/** What a per-user connection is made from: a remote server and, for the administrator's, its sign-in settings. */
export interface PerUserServer {
  userId: number;
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  oauth?: McpSignInSettings;
  source: "config" | "user";
}

export const configServerId = (name: string) => `config:${name}`;

/**
 * Every user's tool servers: the administrator's shared connections, and a connection per user for each remote
 * server the user signs in to (the administrator's with `oauth`, and the user's own), made on first use and kept.
 * One user's connection (and token) is never another's.
 */
export function createServerDirectory(deps: {
  hub: McpHub;
  repo: ToolServersRepo;
  /** Makes a user's connection to a remote server (their sign-in, the private-address rule). */
  connect(server: PerUserServer): McpConnection;
  /** How long a listing waits for servers still starting. */
  listWaitMs: number;
}) {
  const perUser = new Map<string, McpConnection>();
  const key = (userId: number, id: string) => `${userId}\u0000${id}`;

  function connectionFor(server: PerUserServer): McpConnection {
    const found = perUser.get(key(server.userId, server.id));
    if (found) return found;
    const made = deps.connect(server);
    perUser.set(key(server.userId, server.id), made);
    return made;
  }

  function fromConfig(userId: number, entry: McpServerEntry): ToolServer {
    const id = configServerId(entry.name);
    const base = { id, name: entry.name, source: "config" as const, transport: entry.transport };
    if (signsIn(entry) && "http" in entry) {
      const connection = connectionFor({
        userId,
        id,
        name: entry.name,
        url: entry.http.url,
        headers: entry.http.headers,
        oauth: entry.http.oauth,
        source: "config",
      });
      return { ...base, url: entry.http.url, connection, trustedByDefault: entry.http.trusted ?? false, signsIn: true, oauth: entry.http.oauth };
    }
    const trusted = "stdio" in entry ? (entry.stdio.trusted ?? true) : "http" in entry ? (entry.http.trusted ?? true) : true;
    return {
      ...base,
      ...("http" in entry ? { url: entry.http.url } : {}),
      connection: deps.hub.shared(entry.name)!,
      trustedByDefault: trusted,
      signsIn: false,
    };
  }

  async function forUser(userId: number): Promise<ToolServer[]> {
    const configured = deps.hub.entries.map((entry) => fromConfig(userId, entry));
    const taken = new Set(configured.map((server) => server.name));
    const own = (await deps.repo.list(userId))
      .filter((row) => !taken.has(row.name))
      .map((row): ToolServer => ({
        id: row.id,
        name: row.name,
        source: "user",
        transport: "http",
        url: row.url,
        connection: connectionFor({ userId, id: row.id, name: row.name, url: row.url, headers: {}, source: "user" }),
        trustedByDefault: false,
        signsIn: true,
      }));
    return [...configured, ...own];
  }

  return {
    /** The administrator's file could not be read. */
    configError: deps.hub.configError,
    forUser,
    async find(userId: number, id: string): Promise<ToolServer | undefined> {
      return (await forUser(userId)).find((server) => server.id === id);
    },
    /**
     * The user's servers once started: waiting a little for those still starting (a listing), or until each started
     * or failed (a turn, which needs their tools; a start has its own time limit).
     */
    async started(userId: number, wait: "briefly" | "until-started"): Promise<ToolServer[]> {
      const servers = await forUser(userId);
      const starts = Promise.all(servers.map((server) => server.connection.ensure().catch(() => undefined)));
      let timer: NodeJS.Timeout | undefined;
      if (wait === "until-started") await starts;
      else await Promise.race([starts, new Promise((resolve) => (timer = setTimeout(resolve, deps.listWaitMs)))]);
      clearTimeout(timer);
      return servers;
    },
    /** Closes and forgets a user's connection (the server was removed, or its sign-in changed). */
    async forget(userId: number, id: string) {
      const connection = perUser.get(key(userId, id));
      perUser.delete(key(userId, id));
      await connection?.close();
    },
    async close() {
      await Promise.all([...perUser.values()].map((connection) => connection.close()));
      perUser.clear();
      await deps.hub.close();
    },
  };
}

export type ServerDirectory = ReturnType<typeof createServerDirectory>;
