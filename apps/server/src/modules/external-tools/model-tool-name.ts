/** Gemini's function names: letters, digits, `_ . -`, at most 64, starting with a letter or an underscore. */
const MAX_LENGTH = 64;

/** `<server>__<tool>` cut to the model's function-name rules; a name already `taken` gets a numbered suffix. */
export function modelToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  let base = `${server}__${tool}`.replace(/[^a-zA-Z0-9_.-]/g, "_");
  if (!/^[a-zA-Z_]/.test(base)) base = `_${base}`;
  let name = base.slice(0, MAX_LENGTH);
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_LENGTH - String(n).length - 1)}_${n}`;
  return name;
}
