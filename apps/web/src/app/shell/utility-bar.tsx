import { BellIcon, FlaskConicalIcon, GlobeIcon, LogOutIcon, MessageSquareIcon, MoonIcon, SettingsIcon, SunIcon } from "lucide-react";
import { useLocation } from "wouter";
import { useLogout } from "@/features/auth/api/logout";
import { unreadReminderCount, useReminders } from "@/features/reminders/api/get-reminders";
import { RemindersSheet } from "@/features/reminders/components/reminders-sheet";
import { useTheme } from "@/features/theme/use-theme";
import { UtilityIconButton } from "./utility-icon-button";

function isActivePath(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

/** The logged-in tool row above the pages; the icon of the active route is highlighted. */
export function UtilityBar() {
  const [location] = useLocation();
  const { theme, toggleTheme } = useTheme();
  const logout = useLogout();
  const reminders = useReminders();
  const themeLabel = theme === "dark" ? "Switch to light mode" : "Switch to dark mode";
  const unread = unreadReminderCount(reminders.data);

  return (
    <nav aria-label="Utilities" className="flex shrink-0 items-center justify-end gap-1 border-b bg-background px-3 py-1.5">
      <UtilityIconButton label="Conversations" icon={MessageSquareIcon} href="/conversations" active={isActivePath(location, "/conversations")} />
      <RemindersSheet>
        <UtilityIconButton
          label="Reminders"
          // The dot is decoration; the name carries the news for a screen reader.
          status={unread > 0 ? `${unread} unread` : undefined}
          icon={BellIcon}
          badge={
            unread > 0 ? (
              <span
                data-testid="reminders-unread-badge"
                aria-hidden
                className="absolute top-1.5 right-1.5 size-2 rounded-full bg-red-500 ring-2 ring-background"
              />
            ) : null
          }
        />
      </RemindersSheet>
      <UtilityIconButton label={themeLabel} icon={theme === "dark" ? SunIcon : MoonIcon} onClick={toggleTheme} />
      <UtilityIconButton label="Test vector model" icon={FlaskConicalIcon} href="/test-gemini" active={isActivePath(location, "/test-gemini")} />
      <UtilityIconButton label="Test web search" icon={GlobeIcon} href="/web-search-test" active={isActivePath(location, "/web-search-test")} />
      <UtilityIconButton label="Settings" icon={SettingsIcon} href="/settings" active={isActivePath(location, "/settings")} />
      <UtilityIconButton label="Logout" icon={LogOutIcon} onClick={() => logout.mutate()} disabled={logout.isPending} />
    </nav>
  );
}
