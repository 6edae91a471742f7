/** A user's filename reduced to its last segment, without control characters (it is only ever a label). */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // Control characters never belong in a label (a NUL or line break would also break the download header).
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255) || "file";
}
