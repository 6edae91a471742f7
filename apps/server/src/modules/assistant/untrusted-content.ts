import { foldCase } from "@sage/contracts/text";

/**
 * The "private data + untrusted content + a way out" rule (decision 031): once a turn has read text the user did
 * not type (a document passage, a web page, an external tool's answer), a call that can carry data out of SAGE
 * waits for the user's Approve: any external tool (`reason`), and a web search whose query has words the user
 * never typed (`approvalReason`). turn-approval.ts says which call is which.
 */

/** Where a turn's untrusted text came from, as the approval card names it ("kilimanjaro-memo.txt"). */
export interface UntrustedSource {
  label: string;
}

/** Words of at least two letters or digits, folded like search folds them (case and accents aside). */
export function words(text: string): string[] {
  return (foldCase(text).match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length >= 2 || /\p{N}/u.test(word));
}

/** Every string and number in a tool call's arguments, however deep. */
function values(input: unknown, into: string[] = []): string[] {
  if (typeof input === "string") into.push(input);
  else if (typeof input === "number" || typeof input === "bigint") into.push(String(input));
  else if (Array.isArray(input)) for (const item of input) values(item, into);
  else if (input && typeof input === "object") for (const item of Object.values(input)) values(item, into);
  return into;
}

/**
 * The words of a call's arguments that the user never typed in this conversation: what the call could carry out
 * that came from somewhere else (a memory, a document, a mail).
 */
export function wordsNotTyped(args: Record<string, unknown>, typed: ReadonlySet<string>): string[] {
  const foreign = new Set<string>();
  for (const value of values(args)) for (const word of words(value)) if (!typed.has(word)) foreign.add(word);
  return [...foreign];
}

/**
 * One turn's account of untrusted text: what the user typed (the conversation's user messages, this one
 * included), and the sources read so far. A turn starts clean; reading untrusted text taints it for the rest of
 * the turn.
 */
export function createUntrustedContent(userTexts: readonly string[]) {
  const typed = new Set(userTexts.flatMap(words));
  const sources: UntrustedSource[] = [];

  return {
    /** Records text the turn read that the user did not type. */
    read(label: string) {
      if (!sources.some((source) => source.label === label)) sources.push({ label });
    },
    get tainted() {
      return sources.length > 0;
    },
    sources: (): readonly UntrustedSource[] => sources,
    /** Why any call that sends data out needs the user's Approve now, or null while the turn is clean. */
    reason: (): string | null => (sources.length > 0 ? followsText(sources) : null),
    /**
     * Why a call that can carry data out needs the user's Approve, or null when it may run as usual: the turn is
     * clean, or every word it would send is one the user typed.
     */
    approvalReason(args: Record<string, unknown>): string | null {
      if (sources.length === 0 || wordsNotTyped(args, typed).length === 0) return null;
      return followsText(sources);
    },
  };
}

export type UntrustedContent = ReturnType<typeof createUntrustedContent>;

/** "This request follows text from kilimanjaro-memo.txt" (the first two sources named, then how many more). */
export function followsText(sources: readonly UntrustedSource[]): string {
  const named = sources.slice(0, 2).map((source) => source.label);
  const more = sources.length - named.length;
  return `This request follows text from ${named.join(" and ")}${more > 0 ? ` and ${more} more` : ""}`;
}
