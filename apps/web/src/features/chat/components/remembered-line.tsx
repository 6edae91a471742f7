import { useQueryClient } from "@tanstack/react-query";
import { MEMORY_TEXTS, type Memory } from "@sage/contracts/memories";
import { BrainIcon } from "lucide-react";
import { useState } from "react";
import { toastError } from "@/components/ui/toast-error";
import { apiRequest } from "@/lib/api-client";

/** "Remembered: …" under the answer that saved a memory; Undo deletes the memory. */
export function RememberedLine({ memory, onUndone }: { memory: Memory; onUndone: () => void }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function undo() {
    setPending(true);
    try {
      await apiRequest(`/api/memories/${memory.id}`, { method: "DELETE" });
      void queryClient.invalidateQueries({ queryKey: ["memories"] });
      onUndone();
    } catch (error) {
      toastError({ error, fallback: "Could not undo" });
      setPending(false);
    }
  }

  return (
    <li className="flex items-center gap-2 self-start text-xs text-muted-foreground" data-testid="remembered-line">
      <BrainIcon className="size-3.5" aria-hidden />
      <span>{MEMORY_TEXTS.remembered(memory.content)}</span>
      <button
        type="button"
        disabled={pending}
        onClick={() => void undo()}
        className="rounded font-medium text-foreground underline underline-offset-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50"
      >
        {MEMORY_TEXTS.undo}
      </button>
    </li>
  );
}
