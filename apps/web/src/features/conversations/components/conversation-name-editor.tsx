import type { Conversation } from "@sage/contracts/conversations";
import { PencilIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useUpdateConversation } from "../api/update-conversation";
import { displayName } from "../conversation-list-view";

/** The detail header's name with an edit control and Save; a failure shows 'Failed to update name'. */
export function ConversationNameEditor({ conversation }: { conversation: Conversation }) {
  const update = useUpdateConversation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(conversation.name);

  function save() {
    update.mutate(
      { id: conversation.id, name },
      {
        onSuccess: () => setEditing(false),
        onError: () => toastError({ description: "Failed to update name" }),
      },
    );
  }

  if (!editing) {
    return (
      <div className="flex min-w-0 flex-1 items-center gap-1">
        <h1 className="truncate text-lg font-semibold" data-testid="conversation-title" title={displayName(conversation)}>
          {displayName(conversation)}
        </h1>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Edit name"
          onClick={() => {
            setName(conversation.name);
            setEditing(true);
          }}
        >
          <PencilIcon aria-hidden />
        </Button>
      </div>
    );
  }
  return (
    <form
      className="flex min-w-0 flex-1 items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {/* The page keeps its level-one heading while the name is being edited. */}
      <h1 className="sr-only">{displayName(conversation)}</h1>
      <Input aria-label="Conversation name" value={name} onChange={(event) => setName(event.target.value)} autoFocus className="h-8 max-w-64 flex-1" />
      <Button type="submit" size="sm" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save"}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
