import type { ToolPrompt } from "@sage/contracts/external-tools";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { getToolPrompt, useToolPrompts } from "../api/tool-offers";

/** The word typed after "/" when the message is just that (the menu shows while it is). */
export const promptQuery = (draft: string) => /^\/(\S*)$/.exec(draft)?.[1];

/**
 * The composer's "/": the prompts the user's tool servers offer, filtered by what follows the "/". Choosing one
 * asks for its arguments (when it has any) and fills the message with the prompt's text, to read and send.
 */
export function PromptMenu({ query, onFill, onClose }: { query: string; onFill: (text: string) => void; onClose: () => void }) {
  const prompts = useToolPrompts(true);
  const [chosen, setChosen] = useState<ToolPrompt | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const wanted = query.toLowerCase();
  const shown = (prompts.data?.prompts ?? []).filter((prompt) => `${prompt.name} ${prompt.title ?? ""}`.toLowerCase().includes(wanted));

  async function fillFrom(prompt: ToolPrompt, args: Record<string, string>) {
    setBusy(true);
    try {
      onFill((await getToolPrompt({ serverId: prompt.serverId, name: prompt.name, arguments: args })).text);
    } catch (error) {
      toastError({ error, fallback: "The prompt could not be read" });
    } finally {
      setBusy(false);
    }
  }

  function choose(prompt: ToolPrompt) {
    if (prompt.arguments.length === 0) return void fillFrom(prompt, {});
    setValues({});
    setChosen(prompt);
  }

  const missing = (prompt: ToolPrompt) => prompt.arguments.some((argument) => argument.required && !values[argument.name]?.trim());

  /** Not a form of its own: the menu sits inside the composer's form, whose submit would send the message. */
  function submit() {
    if (chosen && !missing(chosen)) void fillFrom(chosen, Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== "")));
  }

  return (
    <div
      className="w-full rounded-md border bg-popover p-2 text-sm shadow-md"
      role="region"
      aria-label="Prompts from your tools"
      onKeyDown={(event) => event.key === "Escape" && onClose()}
      data-testid="prompt-menu"
    >
      {chosen ? (
        <div className="flex flex-col gap-2" role="group" aria-label={`Arguments of ${chosen.title ?? chosen.name}`}>
          <p className="font-medium">{chosen.title ?? chosen.name}</p>
          {chosen.arguments.map((argument) => (
            <label key={argument.name} className="flex flex-col gap-0.5">
              <span>
                {argument.name}
                {argument.required ? <span aria-hidden> *</span> : null}
              </span>
              {argument.description && <span className="text-xs text-muted-foreground">{argument.description}</span>}
              <Input
                required={argument.required}
                value={values[argument.name] ?? ""}
                onChange={(event) => setValues((all) => ({ ...all, [argument.name]: event.target.value }))}
                onKeyDown={(event) => {
                  // Enter uses the prompt, as a form's would, without sending the composer's message.
                  if (event.key !== "Enter") return;
                  event.preventDefault();
                  submit();
                }}
              />
            </label>
          ))}
          <div className="flex gap-2">
            <Button size="sm" type="button" disabled={busy || missing(chosen)} onClick={submit}>
              Use prompt
            </Button>
            <Button size="sm" type="button" variant="ghost" onClick={() => setChosen(null)}>
              Back
            </Button>
          </div>
        </div>
      ) : (
        <>
          <p className="px-1 pb-1 text-xs text-muted-foreground">Prompts from your tools</p>
          {prompts.isPending && <p className="px-1 text-muted-foreground">Loading...</p>}
          {prompts.data && shown.length === 0 && <p className="px-1 text-muted-foreground">No prompt matches.</p>}
          <ul className="flex max-h-56 flex-col overflow-y-auto">
            {shown.map((prompt) => (
              <li key={`${prompt.serverId} ${prompt.name}`}>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => choose(prompt)}
                  className="flex w-full flex-col items-start rounded-sm px-2 py-1 text-left hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
                >
                  <span>
                    /{prompt.name} <span className="text-xs text-muted-foreground">({prompt.server})</span>
                  </span>
                  {(prompt.description ?? prompt.title) && <span className="text-xs text-muted-foreground">{prompt.description ?? prompt.title}</span>}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
