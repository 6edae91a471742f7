/**
 * The language SAGE listens and speaks in (voice input, voice mode, Read aloud), kept in this browser. The spec's
 * en-US is the default; the choice is the browser's speech engines' (BCP 47 tags they know).
 */
export const VOICE_LANGUAGES = [
  { value: "en-US", label: "English (United States)" },
  { value: "en-GB", label: "English (United Kingdom)" },
  { value: "fr-FR", label: "Français" },
  { value: "de-DE", label: "Deutsch" },
  { value: "es-ES", label: "Español" },
  { value: "it-IT", label: "Italiano" },
  { value: "pt-BR", label: "Português (Brasil)" },
  { value: "nl-NL", label: "Nederlands" },
  { value: "pl-PL", label: "Polski" },
  { value: "cs-CZ", label: "Čeština" },
  { value: "ja-JP", label: "日本語" },
  { value: "zh-CN", label: "中文 (简体)" },
] as const;

const KEY = "sage.voiceLanguage";
export const DEFAULT_VOICE_LANGUAGE = "en-US";

export function voiceLanguage(): string {
  try {
    const saved = window.localStorage.getItem(KEY);
    return VOICE_LANGUAGES.some((language) => language.value === saved) ? saved! : DEFAULT_VOICE_LANGUAGE;
  } catch {
    return DEFAULT_VOICE_LANGUAGE; // storage refused (private mode): the default
  }
}

export function saveVoiceLanguage(value: string): void {
  try {
    window.localStorage.setItem(KEY, value);
  } catch {
    // Not kept past this page; the choice still applies until it is left.
  }
}
