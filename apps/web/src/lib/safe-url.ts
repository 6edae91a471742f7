/** The only link schemes rendered in messages, so a model's reply cannot carry a javascript: or data: link. */
export const ALLOWED_URL_SCHEMES = ["http", "https", "irc", "ircs", "mailto", "xmpp"] as const;

/** The URL when its scheme is allowed, otherwise "" (relative and scheme-less links are stripped too). */
export function safeUrl(url: string): string {
  const match = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url);
  if (!match) return "";
  return (ALLOWED_URL_SCHEMES as readonly string[]).includes(match[1]!.toLowerCase()) ? url.trim() : "";
}
