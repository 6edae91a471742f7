import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ThemeContext, type ThemeContextValue } from "./theme-context";
import {
  DEFAULT_THEME,
  SYSTEM_THEME_STORAGE_KEY,
  THEME_STORAGE_KEY,
  initialThemeState,
  storageWritesFor,
  themeReducer,
  type Theme,
  type ThemeAction,
} from "./theme-state";

const DARK_QUERY = "(prefers-color-scheme: dark)";
/** The title-bar colours, so an installed window's OS controls area matches the bar. */
const THEME_COLORS: Record<Theme, string> = { light: "#f5f5f5", dark: "#121212" };

function readSystemTheme(): Theme | null {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return null;
  return window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable (private mode): the theme still applies for this session.
  }
}

function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  root.classList.add(theme);
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", THEME_COLORS[theme]);
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(() =>
    initialThemeState({ theme: readStorage(THEME_STORAGE_KEY), isSystemTheme: readStorage(SYSTEM_THEME_STORAGE_KEY) }, readSystemTheme()),
  );
  const stateRef = useRef(state);

  const dispatch = useCallback((action: ThemeAction) => {
    const next = themeReducer(stateRef.current, action);
    if (next === stateRef.current) return;
    for (const [key, value] of storageWritesFor(action, next)) writeStorage(key, value);
    stateRef.current = next;
    setState(next);
  }, []);

  useLayoutEffect(() => applyTheme(state.theme), [state.theme]);

  useEffect(() => {
    if (!state.isSystemTheme || typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(DARK_QUERY);
    // Catch a change that happened before this listener was attached.
    dispatch({ type: "system-changed", systemTheme: query.matches ? "dark" : "light" });
    const onChange = (event: MediaQueryListEvent) => dispatch({ type: "system-changed", systemTheme: event.matches ? "dark" : "light" });
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [state.isSystemTheme, dispatch]);

  const value = useMemo<ThemeContextValue>(
    () => ({
      theme: state.theme,
      isSystemTheme: state.isSystemTheme,
      toggleTheme: () => dispatch({ type: "toggle" }),
      setTheme: (theme) => dispatch({ type: "set-theme", theme }),
      setSystemTheme: (enabled) => dispatch({ type: "set-system-theme", enabled, systemTheme: readSystemTheme() ?? DEFAULT_THEME }),
    }),
    [state, dispatch],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}
