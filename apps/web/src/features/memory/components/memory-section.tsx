import { MEMORY_CONTENT_MAX, MEMORY_TEXTS, type Memory } from "@sage/contracts/memories";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { cn } from "@/lib/cn";
import { useMemories, useMemoryActions, useMemorySettings } from "../api/memories";

const failed = (error: unknown) => toastError({ error, fallback: "Something went wrong" });

/** Settings > Memory: what SAGE remembers about the user (add, edit, delete) and the "Let SAGE remember" switch. */
export function MemorySection() {
  const memories = useMemories();
  const settings = useMemorySettings();
  const actions = useMemoryActions();
  const [draft, setDraft] = useState("");
  const enabled = settings.data?.enabled ?? true;

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    actions.add.mutate(draft, { onSuccess: () => setDraft(""), onError: failed });
  };

  return (
    <section aria-labelledby="memory-heading" className="grid gap-6">
      <div className="grid gap-1">
        <h2 id="memory-heading" className="text-xl font-semibold">
          Memory
        </h2>
        <p className="text-sm text-muted-foreground">Facts about you, your people and your preferences that SAGE uses in every conversation.</p>
      </div>
      <div className="flex items-center gap-3">
        <button
          type="button"
          role="switch"
          id="memory-enabled"
          aria-checked={enabled}
          disabled={settings.isLoading || actions.setEnabled.isPending}
          onClick={() => actions.setEnabled.mutate(!enabled, { onError: failed })}
          className={cn(
            "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50",
            enabled ? "bg-primary" : "bg-input",
          )}
        >
          <span className={cn("inline-block size-5 rounded-full bg-background shadow transition-transform", enabled ? "translate-x-5" : "translate-x-0.5")} />
        </button>
        <label htmlFor="memory-enabled" className="text-sm font-medium">
          {MEMORY_TEXTS.switchLabel}
        </label>
      </div>
      {!enabled && <p className="text-sm text-muted-foreground">SAGE neither saves new memories nor uses these ones while this is off.</p>}
      <form onSubmit={onAdd} className="flex gap-2">
        <Input
          aria-label="New memory"
          placeholder="e.g. Anna Berg is my chief of staff"
          value={draft}
          maxLength={MEMORY_CONTENT_MAX}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit" disabled={!draft.trim() || actions.add.isPending}>
          Add memory
        </Button>
      </form>
      {memories.data && memories.data.length === 0 && <p className="text-sm text-muted-foreground">SAGE remembers nothing about you yet.</p>}
      <ul aria-label="Memories" className="grid gap-2">
        {memories.data?.map((memory) => (
          <MemoryRow key={memory.id} memory={memory} />
        ))}
      </ul>
    </section>
  );
}

function MemoryRow({ memory }: { memory: Memory }) {
  const actions = useMemoryActions();
  const [editing, setEditing] = useState<string | null>(null);

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    if (editing === null || !editing.trim()) return;
    actions.edit.mutate({ id: memory.id, content: editing }, { onSuccess: () => setEditing(null), onError: failed });
  };

  if (editing !== null) {
    return (
      <li className="rounded-md border p-3">
        <form onSubmit={onSave} className="flex gap-2">
          <Input
            aria-label="Edit memory"
            value={editing}
            maxLength={MEMORY_CONTENT_MAX}
            autoFocus
            onChange={(event) => setEditing(event.target.value)}
            onKeyDown={(event) => event.key === "Escape" && setEditing(null)}
          />
          <Button type="submit" disabled={!editing.trim() || actions.edit.isPending}>
            Save
          </Button>
          <Button type="button" variant="outline" onClick={() => setEditing(null)}>
            Cancel
          </Button>
        </form>
      </li>
    );
  }
  return (
    <li className="flex items-start gap-3 rounded-md border p-3">
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words">{memory.content}</p>
        <p className="text-xs text-muted-foreground">{memory.source === "assistant" ? "Saved by SAGE from a conversation" : "Added by you"}</p>
        {/* Issue 47: kept from a red card, its words came from someone else's text; it says whose. */}
        {memory.derivedFrom && (
          <p className="text-xs font-medium text-red-800 dark:text-red-200" data-testid="memory-from">{`From ${memory.derivedFrom.title}; you kept it.`}</p>
        )}
        {memory.flaggedSecret && <p className="text-xs font-medium text-destructive">{MEMORY_TEXTS.flaggedSecret}</p>}
      </div>
      <Button type="button" variant="outline" size="sm" aria-label={`Edit memory: ${memory.content}`} onClick={() => setEditing(memory.content)}>
        Edit
      </Button>
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label={`Delete memory: ${memory.content}`}
        disabled={actions.remove.isPending}
        onClick={() => actions.remove.mutate(memory.id, { onError: failed })}
      >
        Delete
      </Button>
    </li>
  );
}
