import type { ArgumentProvenance, CallProvenance, ContentSource } from "@sage/contracts/provenance";
import { foldCase } from "@sage/contracts/text";
import { carriers, linkHost, linkKey, properNames, quoteRuns, significantStems, stem, withoutCarriers } from "./value-evidence.ts";

/**
 * One turn's account of where values come from (issue 47, decision 062), CaMeL's idea in SAGE's shape: the user's
 * own words and data on one side, every text someone else wrote on the other, each with its source. A tool call's
 * arguments are traced against both; the card reads the result.
 */

/**
 * What an argument is, for tracing it: addresses, a link, a thing of the user's, free text, or shown only; "act" is
 * what the call does in words a user would ask it with ("share by link public"): the user's when they used one.
 */
export type ArgumentRole = "recipients" | "link" | "object" | "act" | "text" | "label" | "setting";

/** Text someone else wrote that the turn holds, with where it came from. */
export interface ContentEntry {
  source: ContentSource;
  text: string;
}

/**
 * An earlier answer of the conversation, written after its turn read content: the model sees its text again, and the
 * texts its turn read (not shown again) name the source of anything the answer repeated.
 */
export interface HistoryAnswer {
  text: string;
  /** What its turn read; none for a turn that read nothing someone else wrote. */
  sources: ContentSource[];
  read: ContentEntry[];
  /** "3 Dec" */
  day: string;
}

/** The user's own data: memories the user keeps, and the people they write to (with the user's own addresses). */
export interface UserData {
  memories: string[];
  people: { address: string; name?: string }[];
}

/** A piece of a value traced to content, or to nothing the user wrote. */
export interface Evidence {
  kind: "address" | "link" | "code" | "quote" | "name" | "object" | "act";
  /** As shown on the card. */
  value: string;
  source?: ContentSource;
}

export interface ArgumentDecision {
  provenance: ArgumentProvenance;
  evidence: Evidence[];
  /** Memories this argument would carry that the user did not type in this conversation. */
  private: string[];
  /** Significant words found in content and never typed by the user (what a memory or reminder would keep). */
  contentWords: { word: string; source: ContentSource }[];
  /** Recipients only: every address is one the user typed, or a person of theirs they named. */
  named?: boolean;
  /** Recipients only: some address is not among the people the user writes to or keeps (typed, or a mail's sender). */
  outside?: boolean;
}

interface Indexed {
  entry: ContentEntry;
  emails: Set<string>;
  links: Set<string>;
  codes: Set<string>;
  runs: Set<string>;
  names: Map<string, string>;
  stems: Set<string>;
  /** The senders of the mail in it (From), by address: the user may name one ("reply to Anna"). */
  senders: Map<string, string>;
  /** A history answer's turn read these; a match in the answer is named after the one that holds it. */
  read?: Indexed[];
  /** How a history answer names its sources when none holds the match. */
  fallback?: ContentSource;
}

function index(entry: ContentEntry): Indexed {
  const found = carriers(entry.text);
  const links = new Set(found.links.flatMap((key) => [key, linkHost(key)]));
  const names = new Map<string, string>();
  for (const name of properNames(withoutCarriers(entry.text))) names.set(name, name);
  const prose = withoutCarriers(entry.text);
  const senders = new Map<string, string>();
  for (const match of entry.text.matchAll(/^From: *(.+)$|"from": *"((?:[^"\\]|\\.)*)"/gm)) {
    const header = (match[1] ?? match[2] ?? "").replace(/\\"/g, '"');
    const address = carriers(header).emails[0];
    if (address)
      senders.set(
        address,
        header
          .replace(/<[^>]*>/, " ")
          .replace(/["']/g, " ")
          .trim(),
      );
  }
  return {
    entry,
    senders,
    emails: new Set(found.emails),
    links,
    codes: new Set(found.codes),
    runs: quoteRuns(prose),
    names,
    stems: new Set(significantStems(prose)),
  };
}

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : typeof value === "string" ? [value] : [];
const addressOf = (entry: string) => foldCase((/<([^>]+)>/.exec(entry)?.[1] ?? entry).trim());
const textOf = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : value === undefined || value === null ? "" : JSON.stringify(value);

export function createTurnProvenance(input: { typed: readonly string[]; user: UserData }) {
  const typedText = input.typed.join("\n");
  const typed = { ...carriers(typedText), runs: quoteRuns(withoutCarriers(typedText)), stems: new Set(significantStems(withoutCarriers(typedText))) };
  const typedEmails = new Set(typed.emails);
  const typedLinks = new Set(typed.links.flatMap((key) => [key, linkHost(key)]));
  const typedCodes = new Set(typed.codes);
  const memoryText = input.user.memories.join("\n");
  const memory = carriers(memoryText);
  const people = new Map<string, string | undefined>();
  for (const person of input.user.people) people.set(foldCase(person.address), person.name);
  for (const address of memory.emails) if (!people.has(address)) people.set(address, undefined);
  const knownLinks = new Set(memory.links.flatMap((key) => [key, linkHost(key)]));
  const knownCodes = new Set(memory.codes);
  const memoryStems = input.user.memories.map((text) => ({ text, stems: new Set(significantStems(text)) }));
  const knownStems = new Set(memoryStems.flatMap((item) => [...item.stems]));

  const visible: Indexed[] = [];

  /** The names a person goes by in the user's data: their name, the memory lines that hold the address, the address's own words. */
  function nameStems(address: string): Set<string> {
    const stems = new Set(significantStems(address.split("@")[0]!.replace(/[._-]+/g, " ")));
    const name = people.get(address);
    if (name) for (const stem of significantStems(name)) stems.add(stem);
    for (const item of memoryStems) if (foldCase(item.text).includes(address)) for (const stem of properNames(item.text)) stems.add(stem);
    return stems;
  }

  /** A mail's sender whose name (or the words of whose address) the user typed. */
  function namedSender(address: string): boolean {
    for (const indexed of visible) {
      for (const each of [indexed, ...(indexed.read ?? [])]) {
        const name = each.senders.get(address);
        if (name === undefined) continue;
        const stems = new Set([...significantStems(name), ...significantStems(address.split("@")[0]!.replace(/[._-]+/g, " "))]);
        if ([...stems].some((stem) => typed.stems.has(stem))) return true;
      }
    }
    return false;
  }

  /** The first content that holds `test`: in an earlier answer, the text its turn read that holds it too, if one does. */
  function sourceOf(test: (indexed: Indexed) => boolean): ContentSource | undefined {
    // A mail named as a mail (sender, day) beats the same mail's passage named by its file.
    const best = (list: ContentSource[]) => list.find((source) => source.messageId !== undefined) ?? list[0];
    const candidates = visible.filter(test).map((indexed) => {
      if (!indexed.read) return indexed.entry.source;
      return best(indexed.read.filter(test).map((read) => read.entry.source)) ?? indexed.fallback ?? indexed.entry.source;
    });
    return best(candidates);
  }

  function recipients(value: unknown): ArgumentDecision {
    const evidence: Evidence[] = [];
    let named = true;
    let outside = false;
    for (const address of asList(value).map(addressOf)) {
      if (!people.has(address)) outside = true;
      if (typedEmails.has(address)) continue;
      if (people.has(address)) {
        if (![...nameStems(address)].some((stem) => typed.stems.has(stem))) named = false;
        continue;
      }
      // The sender of a mail SAGE read, whom the user named ("reply to Anna"): the user chose them.
      if (namedSender(address)) continue;
      named = false;
      evidence.push({ kind: "address", value: address, source: sourceOf((indexed) => indexed.emails.has(address)) });
    }
    return decision(evidence, { named, outside });
  }

  function link(value: unknown): ArgumentDecision {
    const evidence: Evidence[] = [];
    for (const key of carriers(textOf(value)).links) {
      if (typedLinks.has(key) || typedLinks.has(linkHost(key)) || knownLinks.has(key) || knownLinks.has(linkHost(key))) continue;
      evidence.push({ kind: "link", value: key, source: sourceOf((indexed) => indexed.links.has(key) || indexed.links.has(linkHost(key))) });
    }
    return decision(evidence);
  }

  /** Free text: carriers, quotes and proper names found in content and not in the user's own words or data. */
  function text(value: unknown): ArgumentDecision {
    const body = textOf(value);
    const found = carriers(body);
    const evidence: Evidence[] = [];
    for (const address of found.emails) {
      if (typedEmails.has(address) || people.has(address)) continue;
      const source = sourceOf((indexed) => indexed.emails.has(address));
      if (source) evidence.push({ kind: "address", value: address, source });
    }
    for (const key of found.links) {
      if (typedLinks.has(key) || typedLinks.has(linkHost(key)) || knownLinks.has(key) || knownLinks.has(linkHost(key))) continue;
      // A link counts only when it came from content: a bare domain the model wrote itself is not a link followed.
      const source = sourceOf((indexed) => indexed.links.has(key) || indexed.links.has(linkHost(key)));
      if (source) evidence.push({ kind: "link", value: key, source });
    }
    for (const code of found.codes) {
      if (typedCodes.has(code) || knownCodes.has(code)) continue;
      const source = sourceOf((indexed) => indexed.codes.has(code));
      if (source) evidence.push({ kind: "code", value: code, source });
    }
    const prose = withoutCarriers(body);
    const runs = [...quoteRuns(prose)].filter((run) => !typed.runs.has(run));
    for (const run of runs) {
      const source = sourceOf((indexed) => indexed.runs.has(run));
      if (source && !evidence.some((item) => item.kind === "quote" && item.source?.title === source.title))
        evidence.push({ kind: "quote", value: run, source });
    }
    const stems = new Set(significantStems(prose));
    // A proper name copied from content keeps its capital in the value too.
    for (const stem of capitalised(prose)) {
      if (typed.stems.has(stem) || knownStems.has(stem)) continue;
      const source = sourceOf((indexed) => indexed.names.has(stem));
      if (source) evidence.push({ kind: "name", value: displayWord(prose, stem, true), source });
    }
    const contentWords: ArgumentDecision["contentWords"] = [];
    for (const stem of stems) {
      if (typed.stems.has(stem) || knownStems.has(stem)) continue;
      const source = sourceOf((indexed) => indexed.stems.has(stem));
      if (source) contentWords.push({ word: displayWord(body, stem), source });
    }
    const privateMemories = memoryStems.filter((item) => [...item.stems].some((stem) => stems.has(stem) && !typed.stems.has(stem))).map((item) => item.text);
    return { ...decision(evidence), private: privateMemories, contentWords };
  }

  /** A thing of the user's (a mail, an event, a file) by its id or name, with what the card shows of it. */
  function object(value: unknown, labels: string, shownAs: string): ArgumentDecision {
    // A file's extension names no file: "read memo.txt" does not name budget.txt (decision 067).
    const described = `${textOf(value).replace(/\.[\p{L}\p{N}]{1,5}(?=$|[\s/,;])/gu, " ")} ${labels}`;
    if (significantStems(described).some((stem) => typed.stems.has(stem))) return decision([]);
    const shown = shownAs || textOf(value);
    // The text that names it whole ("share payroll.xlsx"), else one that names a word of it as a name.
    const whole = foldCase(shown).trim();
    const source =
      (/\p{L}/u.test(whole) && whole.length >= 3 ? sourceOf((indexed) => foldCase(indexed.entry.text).includes(whole)) : undefined) ??
      sourceOf((indexed) => significantStems(shown).some((stem) => indexed.names.has(stem)));
    return decision([{ kind: "object", value: shown, source }]);
  }

  /**
   * What the call does (decision 068): the user's when they used a word of it; else it came from the content that
   * asks it (the one holding its words), so a thing the user named ("the Q3 memo") is not shared because a document
   * said "share q3-memo.txt by link".
   */
  function act(value: unknown): ArgumentDecision {
    const words = significantStems(textOf(value));
    if (words.length === 0 || words.some((stem) => typed.stems.has(stem))) return decision([]);
    return decision([{ kind: "act", value: textOf(value), source: sourceOf((indexed) => indexed.stems.has(words[0]!)) }]);
  }

  function decision(evidence: Evidence[], extra: { named?: boolean; outside?: boolean } = {}): ArgumentDecision {
    const first = evidence.find((item) => item.source) ?? evidence[0];
    const provenance: ArgumentProvenance = first ? { from: "content", ...(first.source ? { source: first.source } : {}) } : { from: "user" };
    return { provenance, evidence, private: [], contentWords: [], ...extra };
  }

  function senderName(address: string): string | undefined {
    for (const indexed of visible) for (const each of [indexed, ...(indexed.read ?? [])]) if (each.senders.get(address)) return each.senders.get(address);
    return undefined;
  }

  return {
    /** Text someone else wrote that the turn now holds (a passage, a mail, a tool's answer). */
    read(entries: readonly ContentEntry[]) {
      for (const entry of entries) if (entry.text.trim()) visible.push(index(entry));
    },
    /** The conversation's earlier answers written after reading content. */
    history(answers: readonly HistoryAnswer[]) {
      for (const answer of answers) {
        if (answer.sources.length === 0 || !answer.text.trim()) continue;
        const fallback: ContentSource =
          answer.sources.length === 1
            ? answer.sources[0]!
            : { title: `SAGE's answer of ${answer.day}, written after reading ${answer.sources.map((source) => source.title).join(" and ")}` };
        visible.push({ ...index({ source: fallback, text: answer.text }), read: answer.read.map(index), fallback });
      }
    },
    /** Whether the turn holds any text someone else wrote. */
    get holdsContent() {
      return visible.length > 0;
    },
    /** The content read last (the card names it when private data would leave after it). */
    lastSource: (): ContentSource | undefined => visible.at(-1)?.fallback ?? visible.at(-1)?.entry.source,
    /** How the card names an address: "Emma Johnson <emma@example.com>" when the user's data gives a name. */
    display(address: string): string {
      const name = people.get(addressOf(address)) ?? senderName(addressOf(address));
      return name ? `${name} <${addressOf(address)}>` : addressOf(address);
    },
    /** Each argument traced by its role; arguments shown only ("label") and settings are the user's. */
    decide(args: Record<string, unknown>, roles: Readonly<Record<string, ArgumentRole>> = {}): Record<string, ArgumentDecision> {
      const labelled = Object.entries(args).filter(([name]) => roles[name] === "label");
      const labels = labelled.map(([, value]) => textOf(value)).join(" ");
      const shownAs = objectName(labelled.map(([name, value]) => [name, value] as const));
      const decided: Record<string, ArgumentDecision> = {};
      for (const [name, value] of Object.entries(args)) {
        const role = roles[name] ?? "text";
        if (role === "label" || role === "setting") continue;
        decided[name] =
          role === "recipients"
            ? recipients(value)
            : role === "link"
              ? link(value)
              : role === "object"
                ? object(value, labels, shownAs)
                : role === "act"
                  ? act(value)
                  : text(value);
      }
      return decided;
    },
  };
}

export type TurnProvenance = ReturnType<typeof createTurnProvenance>;

/** The per-argument record a call keeps. */
export const provenanceOf = (decided: Record<string, ArgumentDecision>): CallProvenance =>
  Object.fromEntries(Object.entries(decided).map(([name, item]) => [name, item.provenance]));

/** What a card calls the thing a call acts on: its title, subject or name among the labels the tool added. */
function objectName(labels: readonly (readonly [string, unknown])[]): string {
  for (const [name, value] of labels) {
    if (typeof value === "string" && ["title", "subject", "name"].includes(name)) return value;
    const record = value as { title?: unknown; subject?: unknown; name?: unknown } | null;
    for (const field of [record?.title, record?.subject, record?.name]) if (typeof field === "string" && field) return field;
  }
  return "";
}

/** The stems of the words a text writes with a capital. */
function capitalised(text: string): Set<string> {
  return new Set((text.match(/\p{Lu}[\p{L}\p{N}'-]*/gu) ?? []).map((token) => stem(foldCase(token))));
}

/** The word as the value writes it, for the card ("Globex", not "globex"). */
function displayWord(text: string, stemmed: string, capital = false): string {
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu)) {
    if (capital && !/^\p{Lu}/u.test(match[0])) continue;
    const folded = foldCase(match[0]);
    if (folded.startsWith(stemmed) || stemmed.startsWith(folded)) return match[0];
  }
  return stemmed;
}

export { linkKey };
