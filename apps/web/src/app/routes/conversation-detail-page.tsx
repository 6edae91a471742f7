import { ArrowLeftIcon, FilesIcon, BellIcon } from "lucide-react";
import type { Citation } from "@sage/contracts/conversations";
import { useCallback, useState } from "react";
import { Link, useParams } from "wouter";
import { Button } from "@/components/ui/button";
import { ChatPanel } from "@/features/chat/components/chat-panel";
import { useConversation } from "@/features/conversations/api/get-conversation";
import { messagesQueryKey, useMessages } from "@/features/conversations/api/get-messages";
import { ConversationNameEditor } from "@/features/conversations/components/conversation-name-editor";
import { CitedPassageSheet } from "@/features/knowledge/components/cited-passage-sheet";
import { ConversationKnowledgePanel } from "@/features/knowledge/components/conversation-knowledge-panel";
import { ConversationRemindersPanel } from "@/features/reminders/components/conversation-reminders-panel";
import { cn } from "@/lib/cn";
import { RelevantFilesPanel } from "@/features/retrieval/components/relevant-files-panel";

function BackButton() {
  return (
    <Button asChild variant="ghost" size="icon" aria-label="Back to conversations">
      <Link href="/conversations">
        <ArrowLeftIcon aria-hidden />
      </Link>
    </Button>
  );
}

/** /conversations/{id}: knowledge on the left, the chat in the centre, reminders and relevant files on the right. */
export function ConversationDetailPage() {
  const { id = "" } = useParams<{ id: string }>();
  const conversation = useConversation(id);
  const messages = useMessages(id);
  const [draft, setDraft] = useState("");
  const [showFiles, setShowFiles] = useState(false);
  const [showReminders, setShowReminders] = useState(false);
  // A citation chip in the chat opens the cited file's preview (the knowledge feature's).
  const [citation, setCitation] = useState<Citation | null>(null);
  const closeCitation = useCallback(() => setCitation(null), []);

  if (conversation.isPending) return <p className="p-6 text-center text-muted-foreground">Loading...</p>;
  if (!conversation.data) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-4 p-12 text-center">
        <h1 className="text-xl font-semibold">Conversation not found</h1>
        <Button asChild variant="outline">
          <Link href="/conversations">
            <ArrowLeftIcon aria-hidden /> Back to conversations
          </Link>
        </Button>
      </div>
    );
  }
  const conversationId = conversation.data.id;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-2 border-b px-4 py-2">
        <BackButton />
        <ConversationNameEditor conversation={conversation.data} />
        <div className="ml-auto flex gap-1 lg:hidden">
          <Button variant={showFiles ? "secondary" : "ghost"} size="sm" aria-label="Toggle Files panel" aria-pressed={showFiles} onClick={() => setShowFiles((open) => !open)}>
            <FilesIcon aria-hidden /> Files
          </Button>
          <Button variant={showReminders ? "secondary" : "ghost"} size="sm" aria-label="Toggle Reminders panel" aria-pressed={showReminders} onClick={() => setShowReminders((open) => !open)}>
            <BellIcon aria-hidden /> Reminders
          </Button>
        </div>
      </header>
      <div className="grid min-h-0 flex-1 grid-cols-1 lg:grid-cols-[280px_minmax(0,1fr)_320px]">
        <aside className={cn("min-h-0 flex-col gap-4 overflow-y-auto border-r p-4 lg:flex", showFiles ? "flex" : "hidden")}>
          <ConversationKnowledgePanel conversationId={conversationId} />
        </aside>
        <div className="flex min-h-[60vh] min-w-0 flex-col lg:min-h-0">
          <ChatPanel
            conversationId={String(conversationId)}
            messages={messages.data}
            messagesQueryKey={messagesQueryKey(id)}
            onDraftChange={setDraft}
            onOpenCitation={setCitation}
          />
        </div>
        <aside className={cn("min-h-0 flex-col gap-4 overflow-y-auto border-l p-4 lg:flex", showReminders || showFiles ? "flex" : "hidden")}>
          <div className={cn(showReminders ? "block" : "hidden", "lg:block")}>
            <ConversationRemindersPanel conversationId={conversationId} />
          </div>
          <div className={cn(showFiles ? "block" : "hidden", "lg:block")}>
            <RelevantFilesPanel conversationId={conversationId} queryText={draft} />
          </div>
        </aside>
      </div>
      <CitedPassageSheet citation={citation} onClose={closeCitation} />
    </div>
  );
}
