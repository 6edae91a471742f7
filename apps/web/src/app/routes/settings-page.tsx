import type { Citation } from "@sage/contracts/conversations";
import { useCallback, useState } from "react";
import { useSearchParams } from "wouter";
import { CommitmentsSection } from "@/features/commitments/components/commitments-section";
import { NotificationsSection } from "@/features/notifications/components/notifications-section";
import { CitedPassageSheet } from "@/features/knowledge/components/cited-passage-sheet";
import { useAccounts } from "@/features/accounts/api/accounts";
import { AccountsSection } from "@/features/accounts/components/accounts-section";
import { ChannelsSection } from "@/features/channels/components/channels-section";
import { InboxSortingSection } from "@/features/dossiers/inbox-sorting-section";
import { ModelSettings } from "@/features/chat/components/model-settings";
import { MemorySection } from "@/features/memory/components/memory-section";
import { PeopleSection } from "@/features/people/components/people-section";
import { useConversations } from "@/features/conversations/api/get-conversations";
import { displayName } from "@/features/conversations/conversation-list-view";
import { ToolsSection } from "@/features/external-tools/components/tools-section";
import { useFiles } from "@/features/knowledge/api/get-files";
import { KnowledgeBaseSection } from "@/features/knowledge/components/knowledge-base-section";
import { VectorDatabaseActions } from "@/features/retrieval/components/vector-database-actions";
import { SchedulesSection } from "@/features/schedules/components/schedules-section";
import { SettingsMenu } from "@/features/settings/components/settings-menu";
import { UserPreferences, type ThemeChoice } from "@/features/settings/components/user-preferences";
import { parseSettingsSection, SETTINGS_SECTIONS } from "@/features/settings/settings-sections";
import { useTheme } from "@/features/theme/use-theme";
import { useDocumentTitle } from "@/lib/use-document-title";

export function SettingsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const section = parseSettingsSection(searchParams.get("section"));
  useDocumentTitle(`${SETTINGS_SECTIONS.find((item) => item.id === section)!.label} - Settings`);
  // A commitment's source opens as a cited passage: the file's preview at the quoted sentence.
  const [source, setSource] = useState<Citation | null>(null);
  const closeSource = useCallback(() => setSource(null), []);
  const { theme, isSystemTheme, setTheme, setSystemTheme } = useTheme();
  const conversations = useConversations();
  const conversationName = (conversationId: number) => {
    const found = conversations.data?.find((conversation) => conversation.id === conversationId);
    return found ? displayName(found) : undefined;
  };

  const onThemeChoiceChange = (choice: ThemeChoice) => {
    if (choice === "system") setSystemTheme(true);
    else setTheme(choice);
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-6">
      <h1 className="text-2xl font-bold">Settings</h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <aside className="md:w-56 md:shrink-0">
          <SettingsMenu current={section} onSelect={(next) => setSearchParams({ section: next }, { replace: true })} />
        </aside>
        <div className="min-w-0 flex-1">
          {section === "tools" ? (
            <ToolsSection />
          ) : section === "accounts" ? (
            <AccountsSection />
          ) : section === "channels" ? (
            <ChannelsWithMail />
          ) : section === "user-preferences" ? (
            <div className="flex flex-col gap-6">
              <UserPreferences themeChoice={isSystemTheme ? "system" : theme} onThemeChoiceChange={onThemeChoiceChange} />
              <ModelSettings />
              <NotificationsSection />
            </div>
          ) : section === "schedules" ? (
            <SchedulesSection />
          ) : section === "commitments" ? (
            <CommitmentsSection
              onOpenSource={(target) =>
                setSource({
                  n: 1,
                  fileId: target.itemId,
                  filename: target.title,
                  source: target.page ? `page ${target.page}` : "",
                  score: 1,
                  content: target.quote,
                })
              }
            />
          ) : section === "people" ? (
            <PeopleSection
              personId={Number(searchParams.get("person")) || null}
              onOpenPerson={(id) => setSearchParams(id === null ? { section: "people" } : { section: "people", person: String(id) })}
              onOpenSource={setSource}
            />
          ) : section === "inbox" ? (
            <InboxSortingSection />
          ) : section === "memory" ? (
            <MemorySection />
          ) : (
            <KnowledgeWithVectors conversationName={conversationName} />
          )}
        </div>
      </div>
      <CitedPassageSheet citation={source} onClose={closeSource} />
    </div>
  );
}

/** Settings > Channels, offered the user's mail accounts (the server refuses one without SMTP, saying so). */
function ChannelsWithMail() {
  const accounts = useAccounts();
  const mail = (accounts.data ?? []).flatMap((account) => (account.kind === "mail" ? [{ id: account.id, name: account.name, address: account.address }] : []));
  return <ChannelsSection mailAccounts={mail} />;
}

/** The knowledge base with its vector buttons; the vector status is read again when an item's state or passages change. */
function KnowledgeWithVectors({ conversationName }: { conversationName: (conversationId: number) => string | undefined }) {
  const files = useFiles();
  const knowledgeState = files.data?.map((item) => `${item.id}:${item.status}:${item.chunkCount}`).join(",");
  return <KnowledgeBaseSection vectorActions={<VectorDatabaseActions knowledgeState={knowledgeState} />} conversationName={conversationName} />;
}
