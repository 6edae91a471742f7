import { ArrowLeftIcon, FilesIcon, BellIcon, type LucideIcon } from "lucide-react";
import type { Citation } from "@sage/contracts/conversations";
import { useCallback, useState, type ReactNode } from "react";
import { Link, useParams, useSearch } from "wouter";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { ChatPanel } from "@/features/chat/components/chat-panel";
import { ConversationModelPicker } from "@/features/chat/components/conversation-model-picker";
import { toastError } from "@/components/ui/toast-error";
import { useUpdateConversation } from "@/features/conversations/api/update-conversation";
import { useConversation } from "@/features/conversations/api/get-conversation";
import { messagesQueryKey, useMessages } from "@/features/conversations/api/get-messages";
import { ConversationNameEditor } from "@/features/conversations/components/conversation-name-editor";
import { ExportMenu } from "@/features/conversations/components/export-menu";
import { displayName } from "@/features/conversations/conversation-list-view";
import { useMarkRead } from "@/features/conversations/hooks/use-mark-read";
import { useNameAfterExchange } from "@/features/conversations/hooks/use-name-after-exchange";
import { CitedPassageSheet } from "@/features/knowledge/components/cited-passage-sheet";
import { ConversationKnowledgePanel } from "@/features/knowledge/components/conversation-knowledge-panel";
import { ConversationRemindersPanel } from "@/features/reminders/components/conversation-reminders-panel";
import { RelevantFilesPanel } from "@/features/retrieval/components/relevant-files-panel";
import { useRelevantFiles } from "@/features/retrieval/hooks/use-relevant-files";
import { cn } from "@/lib/cn";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useMediaQuery } from "@/lib/use-media-query";

/** From this width the three columns fit; below it the side panels open as sheets over the chat. */
const THREE_COLUMNS = "(min-width: 64rem)";

function BackButton() {
  return (
    <Button asChild variant="ghost" size="icon" aria-label="Back to conversations">
      <Link href="/conversations">
        <ArrowLeftIcon aria-hidden />
      </Link>
    </Button>
  );
}

interface PanelSheetProps {
  label: string;
  icon: LucideIcon;
  side: "left" | "right";
  description: string;
  /** A count shown on the button while the panel is closed (relevant files on a phone). */
  count?: number;
  countLabel?: string;
  children: ReactNode;
}

/** A header button that opens a side panel as a sheet: the whole width on a phone, 28rem from sm up. */
function PanelSheet({ label, icon: Icon, side, description, count = 0, countLabel = "", children }: PanelSheetProps) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          aria-label={count > 0 ? `Open ${label} panel, ${countLabel}` : `Open ${label} panel`}
          className="relative max-sm:size-9 max-sm:p-0"
        >
          <Icon aria-hidden /> <span className="max-sm:sr-only">{label}</span>
          {count > 0 ? (
            <span
              aria-hidden
              data-testid={`${label.toLowerCase()}-count-badge`}
              className="min-w-4 rounded-full bg-primary px-1 text-center text-[10px] leading-4 font-semibold text-primary-foreground max-sm:absolute max-sm:-top-0.5 max-sm:-right-0.5"
            >
              {count}
            </span>
          ) : null}
        </Button>
      </SheetTrigger>
      <SheetContent side={side} className="w-full gap-0 overflow-y-auto sm:max-w-md">
        {/* Names the sheet without a second heading: the panel inside has its own. */}
        <SheetTitle asChild>
          <span className="sr-only">{label}</span>
        </SheetTitle>
        <SheetDescription className="sr-only">{description}</SheetDescription>
        <div className="flex flex-col gap-4 p-4 pt-12">{children}</div>
      </SheetContent>
    </Sheet>
  );
}

/** /conversations/{id}: knowledge on the left, the chat in the centre, reminders and relevant files on the right. */
export function ConversationDetailPage() {
  const { id = "" } = useParams<{ id: string }>();
  const conversation = useConversation(id);
  const messages = useMessages(id);
  useNameAfterExchange(id, conversation.data, messages.data);
  useMarkRead(id, messages.data?.length);
  useDocumentTitle(conversation.isPending ? undefined : conversation.data ? displayName(conversation.data) : "Conversation not found");
  const [draft, setDraft] = useState("");
  // ?message=ID: opened from a message search hit, which the chat shows and marks.
  const focused = Number(new URLSearchParams(useSearch()).get("message"));
  const focusMessageId = Number.isInteger(focused) && focused > 0 ? focused : undefined;
  const threeColumns = useMediaQuery(THREE_COLUMNS);
  // Read here too, so a closed Files panel still says how many files match the draft (the panel shares the request).
  const relevantFiles = useRelevantFiles(Number(id), draft);
  const relevantCount = relevantFiles.activeQuery ? relevantFiles.shown.length : 0;
  // A citation chip in the chat opens the cited file's preview (the knowledge feature's).
  const [citation, setCitation] = useState<Citation | null>(null);
  const closeCitation = useCallback(() => setCitation(null), []);
  const update = useUpdateConversation();

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
  const knowledge = <ConversationKnowledgePanel conversationId={conversationId} />;
  const reminders = <ConversationRemindersPanel conversationId={conversationId} />;
  const relevant = <RelevantFilesPanel conversationId={conversationId} queryText={draft} />;
  const chat = (
    <ChatPanel
      conversationId={String(conversationId)}
      messages={messages.data}
      messagesQueryKey={messagesQueryKey(id)}
      onDraftChange={setDraft}
      onOpenCitation={setCitation}
      focusMessageId={focusMessageId}
      model={conversation.data.model}
    />
  );

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-2 border-b px-4 py-2 max-sm:px-2">
        <BackButton />
        <ConversationNameEditor conversation={conversation.data} />
        <div className="ml-auto flex shrink-0 items-center gap-1">
          <ConversationModelPicker
            value={conversation.data.model}
            disabled={update.isPending}
            onChange={(model) =>
              update.mutate({ id: conversationId, model }, { onError: (error) => toastError({ error, fallback: "Failed to change the model" }) })
            }
          />
          <ExportMenu conversationId={conversationId} />
          {threeColumns ? null : (
            <>
              <PanelSheet
                label="Files"
                icon={FilesIcon}
                side="left"
                description="This conversation's knowledge files and the files relevant to your message"
                count={relevantCount}
                countLabel={`${relevantCount} relevant ${relevantCount === 1 ? "file" : "files"}`}
              >
                {knowledge}
                {relevant}
              </PanelSheet>
              <PanelSheet label="Reminders" icon={BellIcon} side="right" description="This conversation's reminders">
                {reminders}
              </PanelSheet>
            </>
          )}
        </div>
      </header>
      {/* The chat keeps its place in the tree, so crossing the breakpoint never loses a draft or a reply in progress. */}
      <div className={cn("min-h-0 flex-1", threeColumns ? "grid grid-cols-[280px_minmax(0,1fr)_320px]" : "flex flex-col")}>
        {threeColumns ? (
          <aside aria-label="Conversation knowledge" className="flex min-h-0 flex-col gap-4 overflow-y-auto border-r p-4">
            {knowledge}
          </aside>
        ) : null}
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">{chat}</div>
        {threeColumns ? (
          <aside aria-label="Reminders and relevant files" className="flex min-h-0 flex-col gap-4 overflow-y-auto border-l p-4">
            {reminders}
            {relevant}
          </aside>
        ) : null}
      </div>
      <CitedPassageSheet citation={citation} onClose={closeCitation} />
    </div>
  );
}
