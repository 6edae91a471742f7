import { withoutInvisibleFormatting } from "@sage/contracts/knowledge";

/** Longest item name (UTF-16 units, as the API's name fields count). */
const MAX_NAME_LENGTH = 255;
/** An extension longer than this is not one, so it is not kept when a name is cut. */
const MAX_KEPT_EXTENSION = 16;

/**
 * A user's filename (or a folder's name from a zip or an uploaded folder) reduced to its last segment, without
 * control characters or invisible formatting (it is only ever a label), and cut to 255 characters keeping its
 * extension (the type is read from it). Cuts fall between whole characters.
 */
export function cleanFilename(raw: string, fallback = "file"): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // Control characters never belong in a label (a NUL or line break would also break the download header), nor do
  // characters that change how it is shown unseen ("minutes\u202Ecod.txt" shows as "minutestxt.doc").
  // eslint-disable-next-line no-control-regex
  const name = withoutInvisibleFormatting(base.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")).trim();
  if (name.length <= MAX_NAME_LENGTH) return name || fallback;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION ? name.slice(dot) : "";
  let stem = "";
  for (const character of name.slice(0, name.length - extension.length)) {
    if (stem.length + character.length + extension.length > MAX_NAME_LENGTH) break;
    stem += character;
  }
  return `${stem.trimEnd()}${extension}`;
}
