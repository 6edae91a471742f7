import { ConversationList } from "@/features/conversations/components/conversation-list";
import { UpcomingRemindersWidget } from "@/features/reminders/components/upcoming-reminders-widget";
import { useDocumentTitle } from "@/lib/use-document-title";
import { TodayPanel } from "./today-panel";

/** /conversations: the landing text, Today (meetings and reminders due), the upcoming reminders and the conversation list. */
export function ConversationsPage() {
  useDocumentTitle("My Conversations");
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">My Conversations</h1>
        <p className="text-muted-foreground">
          <span className="font-medium text-foreground">Your Personal AI Assistant</span> - Start a new conversation or continue an existing one.
        </p>
      </header>
      <TodayPanel />
      <UpcomingRemindersWidget />
      <ConversationList />
    </div>
  );
}
