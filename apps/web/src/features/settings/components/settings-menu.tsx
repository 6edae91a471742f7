import {
  BookOpenIcon,
  BrainIcon,
  CalendarClockIcon,
  HandshakeIcon,
  InboxIcon,
  MailIcon,
  MessageCircleIcon,
  UserCogIcon,
  UsersIcon,
  WrenchIcon,
} from "lucide-react";
import { cn } from "@/lib/cn";
import { SETTINGS_SECTIONS, type SettingsSectionId } from "../settings-sections";

const ICONS = {
  "knowledge-base": BookOpenIcon,
  "user-preferences": UserCogIcon,
  memory: BrainIcon,
  tools: WrenchIcon,
  accounts: MailIcon,
  channels: MessageCircleIcon,
  schedules: CalendarClockIcon,
  commitments: HandshakeIcon,
  people: UsersIcon,
  inbox: InboxIcon,
} as const;

interface SettingsMenuProps {
  current: SettingsSectionId;
  onSelect: (section: SettingsSectionId) => void;
}

export function SettingsMenu({ current, onSelect }: SettingsMenuProps) {
  return (
    <nav aria-label="Settings sections" className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
      {SETTINGS_SECTIONS.map(({ id, label }) => {
        const Icon = ICONS[id];
        const active = id === current;
        return (
          <button
            key={id}
            type="button"
            aria-current={active ? "page" : undefined}
            onClick={() => onSelect(id)}
            className={cn(
              "flex items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
              active ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:bg-accent/60 hover:text-foreground",
            )}
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </button>
        );
      })}
    </nav>
  );
}
