import { createContext } from "react";
import type { Theme } from "./theme-state";

export interface ThemeContextValue {
  theme: Theme;
  isSystemTheme: boolean;
  toggleTheme: () => void;
  setTheme: (theme: Theme) => void;
  setSystemTheme: (enabled: boolean) => void;
}

export const ThemeContext = createContext<ThemeContextValue | null>(null);
