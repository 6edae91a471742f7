/** The inline text for a Web Speech API error code. */
export function speechErrorText(code: string): string {
  if (code === "not-allowed" || code === "service-not-allowed") return "Microphone access denied";
  if (code === "no-speech") return "No speech detected";
  return `Error: ${code}`;
}
