import type { ExternalServer } from "@sage/contracts/external-tools";
import { toastError } from "@/components/ui/toast-error";
import { useExternalTools, useSaveToolSetting } from "../api/external-tools";

const STATE_LABELS = { connected: "Connected", starting: "Starting", failed: "Failed", "sign-in-needed": "Sign in needed" } as const;
const STATE_COLORS = {
  connected: "text-green-700 dark:text-green-400",
  starting: "text-muted-foreground",
  failed: "text-destructive",
  "sign-in-needed": "text-amber-800 dark:text-amber-300",
} as const;

function ServerCard({ server }: { server: ExternalServer }) {
  const save = useSaveToolSetting();
  const change = (tool: string, setting: { enabled?: boolean; ask?: boolean }) =>
    save.mutate({ server: server.name, tool, ...setting }, { onError: (error) => toastError({ error, fallback: "Failed to save the tool setting" }) });
  const headingId = `tool-server-${server.name}`;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-lg border p-3" data-testid="tool-server">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {server.name}
        </h3>
        <span className={`text-sm ${STATE_COLORS[server.state]}`} data-testid="tool-server-state">
          {STATE_LABELS[server.state]}
        </span>
      </div>
      {server.error && (
        <p className="text-sm break-words text-destructive" role="status">
          {server.error}
        </p>
      )}
      {server.tools.length > 0 && (
        <ul className="flex flex-col divide-y">
          {server.tools.map((tool) => (
            <li key={tool.name} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between" data-testid="external-tool">
              <div className="min-w-0">
                <p className="font-mono text-sm">{tool.name}</p>
                {tool.description && <p className="text-sm text-muted-foreground">{tool.description}</p>}
                {tool.warning && (
                  <div className="mt-1 text-sm text-amber-800 dark:text-amber-300" data-testid="external-tool-warning">
                    <p>{tool.warning}</p>
                    {tool.warningDetail && (
                      <details>
                        <summary className="cursor-pointer">Details</summary>
                        <p className="font-mono text-xs break-words">{tool.warningDetail}</p>
                      </details>
                    )}
                  </div>
                )}
              </div>
              <div className="flex shrink-0 gap-4 text-sm">
                <label className="flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    checked={tool.enabled}
                    disabled={save.isPending}
                    onChange={(event) => change(tool.name, { enabled: event.target.checked })}
                  />
                  Enabled
                </label>
                <label className="flex items-center gap-1.5">
                  <input type="checkbox" checked={tool.ask} disabled={save.isPending} onChange={(event) => change(tool.name, { ask: event.target.checked })} />
                  Ask before running
                </label>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Settings > Tools: the MCP servers the administrator configured, and this user's choices for each tool. */
export function ToolsSection() {
  const tools = useExternalTools();
  const data = tools.data;

  return (
    <section aria-labelledby="tools-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="tools-heading" className="text-lg font-semibold">
        Tools
      </h2>
      <p className="text-sm text-muted-foreground">
        External tools come from the MCP servers listed in the server's mcp.json (SAGE_MCP_CONFIG). A tool that may change something asks before it runs, unless
        you switch that off.
      </p>
      {tools.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
      {tools.isError && <p className="text-sm text-destructive">Failed to load the tools</p>}
      {data?.error && (
        <p className="text-sm break-words text-destructive" role="status">
          {data.error}
        </p>
      )}
      {data && data.servers.length === 0 && !data.error && <p className="text-sm text-muted-foreground">No tool servers are configured.</p>}
      {data?.servers.map((server) => (
        <ServerCard key={server.name} server={server} />
      ))}
    </section>
  );
}
