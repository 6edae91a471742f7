import { describe, expect, it } from "vitest";
import { initialThemeState, storageWritesFor, themeReducer, type ThemeAction, type ThemeState } from "./theme-state";

const none = { theme: null, isSystemTheme: null };

describe("initialThemeState (the startup rule)", () => {
  it("follows the system when isSystemTheme is 'true', even with a stored theme", () => {
    expect(initialThemeState({ theme: "dark", isSystemTheme: "true" }, "light")).toEqual({
      theme: "light",
      isSystemTheme: true,
    });
  });

  it("uses a stored theme and stops following otherwise", () => {
    expect(initialThemeState({ theme: "light", isSystemTheme: "false" }, "dark")).toEqual({
      theme: "light",
      isSystemTheme: false,
    });
    expect(initialThemeState({ theme: "dark", isSystemTheme: null }, "light")).toEqual({
      theme: "dark",
      isSystemTheme: false,
    });
  });

  it("ignores a stored value that is not a theme", () => {
    expect(initialThemeState({ theme: "purple", isSystemTheme: "false" }, "light").theme).toBe("light");
  });

  it("uses the system preference when nothing is stored", () => {
    expect(initialThemeState(none, "light")).toEqual({ theme: "light", isSystemTheme: true });
    expect(initialThemeState(none, "dark")).toEqual({ theme: "dark", isSystemTheme: true });
  });

  it("defaults to dark when the system preference is unknown", () => {
    expect(initialThemeState(none, null).theme).toBe("dark");
    expect(initialThemeState({ theme: null, isSystemTheme: "true" }, null).theme).toBe("dark");
  });
});

describe("themeReducer", () => {
  const following: ThemeState = { theme: "dark", isSystemTheme: true };

  it("toggle flips the theme and stops following the system", () => {
    expect(themeReducer(following, { type: "toggle" })).toEqual({ theme: "light", isSystemTheme: false });
    expect(themeReducer({ theme: "light", isSystemTheme: false }, { type: "toggle" })).toEqual({
      theme: "dark",
      isSystemTheme: false,
    });
  });

  it("set-theme picks a theme and stops following", () => {
    expect(themeReducer(following, { type: "set-theme", theme: "dark" })).toEqual({ theme: "dark", isSystemTheme: false });
  });

  it("set-system-theme on applies the system preference", () => {
    expect(themeReducer({ theme: "dark", isSystemTheme: false }, { type: "set-system-theme", enabled: true, systemTheme: "light" })).toEqual({
      theme: "light",
      isSystemTheme: true,
    });
  });

  it("system changes update the theme only while following", () => {
    expect(themeReducer(following, { type: "system-changed", systemTheme: "light" })).toEqual({
      theme: "light",
      isSystemTheme: true,
    });
    const fixed: ThemeState = { theme: "dark", isSystemTheme: false };
    expect(themeReducer(fixed, { type: "system-changed", systemTheme: "light" })).toBe(fixed);
  });

  it("returns the same state when the system change changes nothing", () => {
    expect(themeReducer(following, { type: "system-changed", systemTheme: "dark" })).toBe(following);
  });
});

describe("storageWritesFor", () => {
  const writes = (state: ThemeState, action: ThemeAction) => storageWritesFor(action, themeReducer(state, action));

  it("toggle stores both values", () => {
    expect(writes({ theme: "dark", isSystemTheme: true }, { type: "toggle" })).toEqual([
      ["theme", "light"],
      ["isSystemTheme", "false"],
    ]);
  });

  it("following the system stores the flag and removes the stored theme", () => {
    expect(writes({ theme: "dark", isSystemTheme: false }, { type: "set-system-theme", enabled: true, systemTheme: "light" })).toEqual([
      ["isSystemTheme", "true"],
      ["theme", null],
    ]);
  });

  it("a system change writes nothing", () => {
    expect(writes({ theme: "dark", isSystemTheme: true }, { type: "system-changed", systemTheme: "light" })).toEqual([]);
  });
});
