import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { JsonSchema, ToolSchemaProblem } from "../../providers/llm/llm.ts";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { mcpFetch } from "../../providers/mcp/mcp-fetch.ts";
import { createMcpConnection } from "../../providers/mcp/mcp-connection.ts";
import type { McpHub } from "../../providers/mcp/mcp-hub.ts";
import type { Database } from "../../store/schema.ts";
import type { SignInPort } from "../sign-in/sign-in.module.ts";
import { createApprovals, type ApprovalsPort } from "./approvals.ts";
import { createElicitations } from "./elicitations.ts";
import { registerExternalToolsRoutes } from "./external-tools.routes.ts";
import { createExternalToolsService } from "./external-tools.service.ts";
import { configServerId, createServerDirectory, type PerUserServer } from "./server-directory.ts";
import { createServerOffersService } from "./server-offers.service.ts";
import { registerServerSignInRoutes } from "./server-sign-in.routes.ts";
import { createServerSignIns, type SignInServer } from "./server-sign-in.ts";
import { createToolServersRepo } from "./tool-servers.repo.ts";
import { createToolServersService } from "./tool-servers.service.ts";
import { createToolSettingsRepo } from "./tool-settings.repo.ts";

/**
 * External tools: the MCP servers of the administrator's file and the remote servers each user adds, offered to the
 * assistant per user (its `toolsFor` port); Settings > Tools (GET /api/tools, PATCH /api/tools/settings, the
 * /api/tools/servers routes); what servers offer (resources, prompts; `resources` port for a turn's attachments);
 * approvals (GET /api/approvals, POST /api/approvals/{id}; the port `approvals`, through which the turn asks) and a
 * server's questions (POST /api/elicitations/{id}). Every connection closes with the app.
 */
export function createExternalToolsModule(deps: {
  db: Kysely<Database>;
  hub: McpHub;
  approvalTimeoutMs: number;
  maxResultChars: number;
  /** The private-address rule remote servers and their authorization servers are reached under. */
  rule: PrivateAddressRule;
  /** The model's own check of a tool's input schema (LlmProvider.checkToolSchema), when it has one. */
  checkToolSchema?: (parameters: JsonSchema) => ToolSchemaProblem | undefined;
  /** Approvals shared by the processes on one database (shared-approvals.ts); else this process's own. */
  approvals?: ApprovalsPort;
  /** The sign-in module (decision 070): remote servers' sign-ins are its grants. Without it no server can be signed in to. */
  signIn?: SignInPort;
  /** SAGE_PUBLIC_URL: the sign-in's callback is made from it (else from the address the browser used). */
  publicUrl?: string | null;
  /** SAGE_MCP_CLIENT_METADATA_URL: SAGE's client metadata document served elsewhere (its address is SAGE's client id). */
  clientMetadataUrl?: string | null;
  secureCookies?: boolean;
  warn(message: string, error?: unknown): void;
}) {
  const approvals: ApprovalsPort = deps.approvals ?? createApprovals({ timeoutMs: deps.approvalTimeoutMs });
  const elicitations = createElicitations({ timeoutMs: deps.approvalTimeoutMs });
  const repo = createToolServersRepo(deps.db);
  const fetch = mcpFetch(deps.rule);
  /** The administrator named a configured server's host; what its metadata points at (an authorization server) is checked. */
  const configFetch = (url: string) => mcpFetch({ ...deps.rule, allowHosts: [...deps.rule.allowHosts, new URL(url).host] });
  const configured = new Set(deps.hub.entries.map((entry) => configServerId(entry.name)));
  const signIns = deps.signIn
    ? createServerSignIns({
        grants: deps.signIn.external,
        repo,
        fetchFor: (server: SignInServer) => (configured.has(server.id) ? configFetch(server.url) : fetch),
        publicUrl: deps.publicUrl ?? null,
        clientMetadataUrl: deps.clientMetadataUrl ?? null,
        warn: deps.warn,
      })
    : undefined;
  const directory = createServerDirectory({
    hub: deps.hub,
    repo,
    listWaitMs: Math.min(deps.hub.timeoutMs, 5_000),
    connect: (server: PerUserServer) =>
      createMcpConnection(
        { name: server.name, transport: "http", http: { url: server.url, headers: server.headers, ...(server.oauth ? { oauth: server.oauth } : {}) } },
        {
          timeoutMs: deps.hub.timeoutMs,
          backoffMs: deps.hub.backoffMs,
          log: deps.warn,
          fetch: server.source === "config" ? configFetch(server.url) : fetch,
          ...(signIns
            ? {
                auth: () => signIns.connectionAuth({ userId: server.userId, id: server.id, url: server.url, ...(server.oauth ? { oauth: server.oauth } : {}) }),
              }
            : {}),
        },
      ),
  });
  const service = createExternalToolsService({
    directory,
    settings: createToolSettingsRepo(deps.db),
    servers: repo,
    elicitations,
    maxResultChars: deps.maxResultChars,
    checkToolSchema: deps.checkToolSchema,
    ...(signIns ? { signInUrl: signIns.signInUrl } : {}),
    log: deps.warn,
  });
  const servers = createToolServersService({ directory, repo, rule: deps.rule, ...(signIns ? { signIns } : {}), log: deps.warn });
  const offers = createServerOffersService({ directory, log: deps.warn });
  const module: AppModule & {
    tools: { toolsFor: typeof service.toolsFor };
    approvals: typeof approvals;
    resources: { forTurn: typeof offers.forTurn };
  } = {
    register(app) {
      registerExternalToolsRoutes(app, { service, servers, offers, approvals, elicitations });
      if (signIns) registerServerSignInRoutes(app, { signIns, directory, secureCookies: deps.secureCookies ?? false, warn: deps.warn });
      app.addHook("onClose", async () => {
        approvals.closeAll();
        elicitations.closeAll();
        await directory.close();
      });
    },
    tools: { toolsFor: service.toolsFor },
    /** Where any call that needs the user's answer waits (the assistant's turn asks through it). */
    approvals,
    /** Tool servers' resources attached to a message, read for the turn. */
    resources: { forTurn: offers.forTurn },
  };
  return module;
}
