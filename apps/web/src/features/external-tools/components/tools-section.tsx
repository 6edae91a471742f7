import { EXTERNAL_TOOL_TEXTS, annotationsInWords, type ExternalServer, type RemoteServer } from "@sage/contracts/external-tools";
import { useEffect, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { externalToolsQueryKey, useAddServer, useExternalTools, useRemoveServer, useSaveToolSetting, useTrustServer } from "../api/external-tools";

const STATE_LABELS = { connected: "Connected", starting: "Starting", failed: "Failed", "sign-in-needed": "Sign in needed" } as const;
const STATE_COLORS = {
  connected: "text-green-700 dark:text-green-400",
  starting: "text-muted-foreground",
  failed: "text-destructive",
  "sign-in-needed": "text-amber-800 dark:text-amber-300",
} as const;

/** The message a sign-in window sends the page that opened it, once the server's sign-in ended. */
const SIGN_IN_MESSAGE = "sage-tool-sign-in";

/** Opens a server's sign-in in a window of its own (the authorization server's page); the list follows when it ends. */
function openSignIn(url: string) {
  const popup = window.open(url, "sage-tool-sign-in", "popup,width=520,height=720");
  // A browser that blocks the window: the sign-in happens in this tab instead, and comes back to Settings > Tools.
  if (!popup) window.location.assign(url);
}

function ServerCard({ server }: { server: ExternalServer }) {
  const save = useSaveToolSetting();
  const remove = useRemoveServer();
  const trust = useTrustServer();
  const change = (tool: string, setting: { enabled?: boolean; ask?: boolean }) =>
    save.mutate({ server: server.name, tool, ...setting }, { onError: (error) => toastError({ error, fallback: "Failed to save the tool setting" }) });
  const headingId = `tool-server-${server.id}`;
  const signedOut = server.state === "sign-in-needed";

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
      {server.url && <p className="text-xs break-all text-muted-foreground">{server.url}</p>}
      {server.error && !signedOut && (
        <p className="text-sm break-words text-destructive" role="status">
          {server.error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {signedOut && server.signInUrl && (
          <Button size="sm" onClick={() => openSignIn(server.signInUrl!)}>
            {server.error === "Sign in again" ? "Sign in again" : "Sign in"}
          </Button>
        )}
        {server.source === "user" && (
          <Button
            size="sm"
            variant="outline"
            disabled={remove.isPending}
            onClick={() => remove.mutate(server.id, { onError: (error) => toastError({ error, fallback: "The server could not be removed" }) })}
          >
            Remove
          </Button>
        )}
        <label
          className="flex items-center gap-1.5 text-sm"
          title="Its tools that it says only read then run without asking first, unless something you did not write came before"
        >
          <input
            type="checkbox"
            checked={server.trusted}
            disabled={trust.isPending}
            onChange={(event) =>
              trust.mutate(
                { serverId: server.id, trusted: event.target.checked },
                { onError: (error) => toastError({ error, fallback: "Failed to save the setting" }) },
              )
            }
          />
          Trust what it says about its tools
        </label>
      </div>
      {server.tools.length > 0 && (
        <ul className="flex flex-col divide-y">
          {server.tools.map((tool) => {
            const hints = annotationsInWords(tool.annotations);
            return (
              <li key={tool.name} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between" data-testid="external-tool">
                <div className="min-w-0">
                  <p className="font-mono text-sm">{tool.name}</p>
                  {tool.description && <p className="text-sm text-muted-foreground">{tool.description}</p>}
                  {(hints.length > 0 || tool.structuredOutput) && (
                    <p className="text-xs text-muted-foreground" data-testid="external-tool-hints">
                      {[...hints, ...(tool.structuredOutput ? ["Gives structured results, shown as a table."] : [])].join(" ")}
                    </p>
                  )}
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
                  <label className="flex items-center gap-1.5" title={tool.alwaysAsks ? EXTERNAL_TOOL_TEXTS.alwaysAsks : undefined}>
                    <input
                      type="checkbox"
                      checked={tool.ask}
                      disabled={save.isPending || tool.alwaysAsks}
                      onChange={(event) => change(tool.name, { ask: event.target.checked })}
                    />
                    Ask before running
                  </label>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Settings > Tools > Add a server: a remote MCP server by its address; one that needs a sign-in offers it at once. */
function AddServerForm() {
  const add = useAddServer();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [added, setAdded] = useState<RemoteServer | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(
      { name: name.trim(), url: url.trim() },
      {
        onSuccess: (server) => {
          setAdded(server);
          setName("");
          setUrl("");
          if (server.status === "sign-in-needed" && server.signInUrl) openSignIn(server.signInUrl);
        },
        onError: (error) => toastError({ error, fallback: "The server could not be added" }),
      },
    );
  }

  return (
    <form className="flex flex-col gap-2 rounded-lg border border-dashed p-3" onSubmit={submit} aria-labelledby="add-tool-server-heading">
      <h3 id="add-tool-server-heading" className="font-semibold">
        Add a server
      </h3>
      <p className="text-sm text-muted-foreground">
        A remote MCP server by its address (Streamable HTTP, or HTTP with SSE for older servers). If it asks you to sign in, its sign-in page opens in a new
        window; your sign-in is yours alone.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm">
          Name
          <Input className="w-40" value={name} onChange={(event) => setName(event.target.value)} placeholder="github" required />
        </label>
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm">
          Address
          <Input type="url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://mcp.example.com/mcp" required />
        </label>
        <Button type="submit" disabled={add.isPending || !name.trim() || !url.trim()}>
          {add.isPending ? "Connecting..." : "Add"}
        </Button>
      </div>
      {added && (
        <p className="text-sm" role="status" data-testid="added-server-status">
          {added.status === "connected"
            ? `${added.name} is connected.`
            : added.status === "sign-in-needed"
              ? `${added.name} needs you to sign in: finish in the window that opened, or press Sign in below.`
              : `${added.name} could not connect: ${added.error ?? "unknown error"}`}
        </p>
      )}
    </form>
  );
}

/**
 * Settings > Tools: the MCP servers the administrator configured and the remote ones this user added, each with its
 * state (and sign-in), and this user's choices for each tool.
 */
export function ToolsSection() {
  const tools = useExternalTools();
  const queryClient = useQueryClient();
  const data = tools.data;

  useEffect(() => {
    // In the sign-in window, back from the server's sign-in: tell the page that opened it, and close.
    const result = new URLSearchParams(window.location.search).get("signIn");
    if (result && window.opener && window.opener !== window) {
      (window.opener as Window).postMessage({ type: SIGN_IN_MESSAGE, result }, window.location.origin);
      window.close();
      return;
    }
    const listen = (event: MessageEvent) => {
      if (event.origin === window.location.origin && (event.data as { type?: string })?.type === SIGN_IN_MESSAGE) {
        void queryClient.invalidateQueries({ queryKey: externalToolsQueryKey });
        if ((event.data as { result?: string }).result !== "connected") toastError({ description: EXTERNAL_TOOL_TEXTS.signInFailed });
      }
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [queryClient]);

  return (
    <section aria-labelledby="tools-heading" className="flex flex-col gap-3 rounded-xl border p-4">
      <h2 id="tools-heading" className="text-lg font-semibold">
        Tools
      </h2>
      <p className="text-sm text-muted-foreground">
        External tools come from MCP servers: those listed in the server's mcp.json (SAGE_MCP_CONFIG), and the remote ones you add below. A tool that may change
        something asks before it runs, unless you switch that off; one its server says can delete or overwrite always asks.
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
        <ServerCard key={server.id} server={server} />
      ))}
      <AddServerForm />
    </section>
  );
}
