import type { ReadResourceResponse, ResourceRef, ToolResource } from "@sage/contracts/external-tools";
import { PlugIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { readToolResource, useToolResources } from "../api/tool-offers";
import { ResourceViewer } from "./tool-output";

/** A resource in the composer: what goes with the message, and how it is named on its chip. */
export interface ComposerResource extends ResourceRef {
  name: string;
  server: string;
}

/** The variables of a URI template (RFC 6570's simple `{name}` form, what servers use). */
const variablesOf = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!.replace(/^[+#./;?&]/, ""));
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name.replace(/^[+#./;?&]/, "")] ?? ""));

function TemplateRow({
  template,
  onAttach,
}: {
  template: { uriTemplate: string; name: string; title?: string; description?: string };
  onAttach: (uri: string) => void;
}) {
  const variables = variablesOf(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const ready = variables.every((name) => values[name]?.trim());
  return (
    <li className="flex flex-col gap-1 py-2">
      <p className="font-medium">{template.title ?? template.name}</p>
      {template.description && <p className="text-xs text-muted-foreground">{template.description}</p>}
      <div className="flex flex-wrap items-end gap-2">
        {variables.map((name) => (
          <label key={name} className="flex flex-col gap-0.5 text-xs">
            {name}
            <Input className="h-8 w-32" value={values[name] ?? ""} onChange={(event) => setValues((all) => ({ ...all, [name]: event.target.value }))} />
          </label>
        ))}
        <Button size="sm" variant="outline" disabled={!ready} onClick={() => onAttach(fill(template.uriTemplate, values))}>
          Attach
        </Button>
      </div>
    </li>
  );
}

/**
 * The paperclip's "From a connected tool": the resources the user's tool servers offer (and templates to fill),
 * each to preview or attach. An attached resource is read when the message is sent and goes with it as text SAGE
 * treats as someone else's (decision 080), cited like a document.
 */
export function ResourcePicker({
  open,
  onOpenChange,
  onAttach,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAttach: (resource: ComposerResource) => void;
}) {
  const offered = useToolResources(open);
  const [preview, setPreview] = useState<{ title: string; content: ReadResourceResponse } | null>(null);
  const servers = [...new Set([...(offered.data?.resources ?? []), ...(offered.data?.templates ?? [])].map((item) => item.server))];

  async function show(resource: ToolResource) {
    try {
      setPreview({ title: resource.title ?? resource.name, content: await readToolResource({ serverId: resource.serverId, uri: resource.uri }) });
    } catch (error) {
      toastError({ error, fallback: "The resource could not be read" });
    }
  }
  const attach = (resource: ComposerResource) => {
    onAttach(resource);
    onOpenChange(false);
  };

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[80vh] overflow-y-auto sm:max-w-xl">
          <DialogTitle>From a connected tool</DialogTitle>
          {offered.isPending && <p className="text-sm text-muted-foreground">Loading...</p>}
          {offered.isError && <p className="text-sm text-destructive">The tools' resources could not be listed</p>}
          {offered.data && servers.length === 0 && <p className="text-sm text-muted-foreground">None of your connected tools offers anything to attach.</p>}
          {servers.map((server) => (
            <section key={server} aria-label={server} className="text-sm">
              <h3 className="font-semibold">{server}</h3>
              <ul className="flex flex-col divide-y">
                {offered
                  .data!.resources.filter((resource) => resource.server === server)
                  .map((resource) => (
                    <li key={resource.uri} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="tool-resource">
                      <div className="min-w-0">
                        <p className="font-medium break-words">{resource.title ?? resource.name}</p>
                        <p className="text-xs break-all text-muted-foreground">
                          {resource.description ?? resource.uri}
                          {resource.updatedAt ? ` (changed ${new Date(resource.updatedAt).toLocaleTimeString()})` : ""}
                        </p>
                      </div>
                      <div className="flex shrink-0 gap-2">
                        <Button size="sm" variant="ghost" onClick={() => void show(resource)}>
                          Preview
                        </Button>
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Attach ${resource.title ?? resource.name}`}
                          onClick={() => attach({ serverId: resource.serverId, uri: resource.uri, name: resource.title ?? resource.name, server })}
                        >
                          Attach
                        </Button>
                      </div>
                    </li>
                  ))}
                {offered
                  .data!.templates.filter((template) => template.server === server)
                  .map((template) => (
                    <TemplateRow
                      key={template.uriTemplate}
                      template={template}
                      onAttach={(uri) => attach({ serverId: template.serverId, uri, name: `${template.title ?? template.name} (${uri})`, server })}
                    />
                  ))}
              </ul>
            </section>
          ))}
        </DialogContent>
      </Dialog>
      <ResourceViewer title={preview?.title ?? ""} content={preview?.content ?? null} onClose={() => setPreview(null)} />
    </>
  );
}

/** The resources waiting in the composer, each to take off again. */
export function ResourceChips({ resources, onRemove }: { resources: ComposerResource[]; onRemove: (resource: ComposerResource) => void }) {
  return (
    <ul aria-label="Attached from your tools" className="flex w-full flex-wrap gap-2" data-testid="composer-resources">
      {resources.map((resource) => (
        <li key={`${resource.serverId} ${resource.uri}`} className="flex items-center gap-1.5 rounded-md border bg-background p-1 text-xs" title={resource.uri}>
          <PlugIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span className="max-w-48 truncate">{resource.name}</span>
          <span className="text-muted-foreground">({resource.server})</span>
          <button
            type="button"
            aria-label={`Remove ${resource.name}`}
            onClick={() => onRemove(resource)}
            className="rounded-full p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <XIcon className="size-3.5" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
