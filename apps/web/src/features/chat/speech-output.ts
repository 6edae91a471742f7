import { voiceLanguage } from "@/lib/voice-language";
/** The browser's speech synthesis (Read aloud, voice mode), or undefined where it has none. */
export function speechSynthesisOrNone(): SpeechSynthesis | undefined {
  return typeof window !== "undefined" && "speechSynthesis" in window && typeof window.SpeechSynthesisUtterance === "function"
    ? window.speechSynthesis
    : undefined;
}

/** An answer's Markdown as words to say: no marks, links as their text, code blocks left out. */
export function spokenText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[\d+\]/g, "")
    .replace(/[*_`#>|~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Says the text (in the chosen voice language, en-US by default), stopping anything being said first; `onEnd` runs when it is done
 * or stopped. Answers false where the browser cannot speak.
 */
export function speak(text: string, onEnd: () => void): boolean {
  const synthesis = speechSynthesisOrNone();
  if (!synthesis) return false;
  synthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(spokenText(text));
  utterance.lang = voiceLanguage();
  utterance.onend = onEnd;
  utterance.onerror = onEnd;
  synthesis.speak(utterance);
  return true;
}

export const stopSpeaking = () => speechSynthesisOrNone()?.cancel();
