export const SETTINGS_SECTIONS = [
  { id: "knowledge-base", label: "Knowledge Base" },
  { id: "user-preferences", label: "User Preferences" },
  { id: "memory", label: "Memory" },
  { id: "tools", label: "Tools" },
  { id: "accounts", label: "Accounts" },
  { id: "channels", label: "Channels" },
  { id: "schedules", label: "Schedules" },
  { id: "commitments", label: "Commitments" },
  { id: "people", label: "People" },
  { id: "inbox", label: "Inbox" },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]["id"];

export const DEFAULT_SETTINGS_SECTION: SettingsSectionId = "knowledge-base";

/** The `?section=` value, or the default (Knowledge Base) when missing or unknown. */
export function parseSettingsSection(value: string | null): SettingsSectionId {
  return SETTINGS_SECTIONS.find((section) => section.id === value)?.id ?? DEFAULT_SETTINGS_SECTION;
}
