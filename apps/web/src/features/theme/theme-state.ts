export type Theme = "light" | "dark";

export interface ThemeState {
  theme: Theme;
  /** True while the theme follows the operating-system preference. */
  isSystemTheme: boolean;
}

/** What local storage holds (raw strings, null when absent). */
export interface StoredTheme {
  theme: string | null;
  isSystemTheme: string | null;
}

export type ThemeAction =
  | { type: "toggle" }
  | { type: "set-theme"; theme: Theme }
  | { type: "set-system-theme"; enabled: boolean; systemTheme: Theme }
  | { type: "system-changed"; systemTheme: Theme };

export const THEME_STORAGE_KEY = "theme";
export const SYSTEM_THEME_STORAGE_KEY = "isSystemTheme";
export const DEFAULT_THEME: Theme = "dark";

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

/**
 * The startup rule: follow the system when the flag is 'true'; otherwise use a
 * stored theme (and stop following); otherwise use the system preference.
 * Without a known system preference the theme is dark.
 */
export function initialThemeState(stored: StoredTheme, systemTheme: Theme | null): ThemeState {
  const system = systemTheme ?? DEFAULT_THEME;
  if (stored.isSystemTheme === "true") return { theme: system, isSystemTheme: true };
  if (isTheme(stored.theme)) return { theme: stored.theme, isSystemTheme: false };
  return { theme: system, isSystemTheme: true };
}

export function themeReducer(state: ThemeState, action: ThemeAction): ThemeState {
  switch (action.type) {
    case "toggle":
      return { theme: state.theme === "dark" ? "light" : "dark", isSystemTheme: false };
    case "set-theme":
      return { theme: action.theme, isSystemTheme: false };
    case "set-system-theme":
      return action.enabled ? { theme: action.systemTheme, isSystemTheme: true } : { ...state, isSystemTheme: false };
    case "system-changed":
      return state.isSystemTheme && state.theme !== action.systemTheme ? { ...state, theme: action.systemTheme } : state;
  }
}

/** The local-storage writes that follow an action (null value = remove the key). */
export function storageWritesFor(action: ThemeAction, next: ThemeState): Array<[key: string, value: string | null]> {
  switch (action.type) {
    case "toggle":
    case "set-theme":
      return [
        [THEME_STORAGE_KEY, next.theme],
        [SYSTEM_THEME_STORAGE_KEY, "false"],
      ];
    case "set-system-theme":
      return action.enabled
        ? [
            [SYSTEM_THEME_STORAGE_KEY, "true"],
            [THEME_STORAGE_KEY, null],
          ]
        : [
            [SYSTEM_THEME_STORAGE_KEY, "false"],
            [THEME_STORAGE_KEY, next.theme],
          ];
    case "system-changed":
      return [];
  }
}
