import { MessageSquareIcon } from "lucide-react";
import { Link } from "wouter";

interface ConversationFilesListProps {
  conversations: Array<{ conversationId: number; files: number }>;
  conversationName?: (conversationId: number) => string | undefined;
}

/** Under the knowledge base's root: which conversations hold files of their own, each a link to it. */
export function ConversationFilesList({ conversations, conversationName = () => undefined }: ConversationFilesListProps) {
  return (
    <section aria-labelledby="conversation-files-title" className="flex flex-col gap-2">
      <h3 id="conversation-files-title" className="font-semibold">
        Files in conversations
      </h3>
      <p className="text-sm text-muted-foreground">
        Files added in a conversation stay with it, in its Conversation Knowledge panel. Search here finds them too.
      </p>
      <ul aria-label="Conversations with files" className="flex flex-col gap-1">
        {conversations.map(({ conversationId, files }) => {
          const name = conversationName(conversationId) || `Conversation ${conversationId}`;
          return (
            <li key={conversationId} className="flex min-w-0 items-center gap-2 text-sm" data-testid="conversation-files">
              <MessageSquareIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <Link href={`/conversations/${conversationId}`} className="min-w-0 truncate underline-offset-2 hover:underline" title={name}>
                {name}
              </Link>
              <span className="shrink-0 text-muted-foreground">
                {files} {files === 1 ? "file" : "files"}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
