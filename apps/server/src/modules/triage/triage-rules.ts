import { TRIAGE_TEXTS, type TriageLabel } from "@sage/contracts/triage";

/** Which mail a rule is about. */
export type RuleCondition =
  { kind: "all" } | { kind: "from"; who: string } | { kind: "about"; words: string } | { kind: "label"; label: "newsletter" | "automated" };

/** What the rule decides for that mail. */
export type RuleEffect = { kind: "urgent"; value: boolean } | { kind: "label"; label: TriageLabel } | { kind: "not-label"; label: TriageLabel };

export interface ReadRule {
  text: string;
  condition: RuleCondition;
  effect: RuleEffect;
  /** How SAGE reads it, in plain words (shown under the rule). */
  meaning: string;
}

/** Who a sender is, as the people pages know them (the rule "anything from the board" names a group or a role). */
export interface SenderInfo {
  name: string;
  organisation: string | null;
  role: string | null;
  groups: string[];
}

const LABEL_WORDS: Record<TriageLabel, string> = TRIAGE_TEXTS.labels;

/** Outcomes, read at the end of the sentence. */
const OUTCOMES: { pattern: RegExp; effect: RuleEffect }[] = [
  { pattern: /\b(?:is|are|always\s+(?:is|are))\s+(?:never|not)\s+urgent$/, effect: { kind: "urgent", value: false } },
  { pattern: /\b(?:is|are)\s+(?:always\s+)?urgent$/, effect: { kind: "urgent", value: true } },
  { pattern: /\bnever\s+urgent$/, effect: { kind: "urgent", value: false } },
  {
    pattern: /\b(?:never|don'?t|do\s+not|doesn'?t|does\s+not)\s+needs?\s+(?:a\s+|an\s+|my\s+)?(?:reply|response|answer)$/,
    effect: { kind: "not-label", label: "needs-reply" },
  },
  { pattern: /\bneeds?\s+no\s+(?:reply|response|answer)$/, effect: { kind: "not-label", label: "needs-reply" } },
  { pattern: /\b(?:always\s+)?needs?\s+(?:a\s+|an\s+|my\s+)?(?:reply|response|answer)$/, effect: { kind: "label", label: "needs-reply" } },
  { pattern: /\b(?:is|are)\s+(?:just\s+|only\s+)?(?:fyi|for\s+(?:my\s+)?information)$/, effect: { kind: "label", label: "fyi" } },
  { pattern: /\b(?:is|are)\s+(?:a\s+)?newsletters?$/, effect: { kind: "label", label: "newsletter" } },
  { pattern: /\b(?:is|are)\s+automated$/, effect: { kind: "label", label: "automated" } },
];

const MAIL = String.raw`(?:anything|everything|all\s+(?:the\s+)?mail|all\s+e-?mails?|all\s+messages|mail|e-?mails?|messages?)`;
const CONDITIONS: { pattern: RegExp; read(match: RegExpExecArray): RuleCondition }[] = [
  { pattern: new RegExp(`^${MAIL}\\s+from\\s+(.+)$`), read: (match) => ({ kind: "from", who: match[1]! }) },
  { pattern: new RegExp(`^${MAIL}\\s+(?:about|regarding|mentioning|on)\\s+(.+)$`), read: (match) => ({ kind: "about", words: match[1]! }) },
  { pattern: /^(?:all\s+)?newsletters?(?:\s+and\s+mailings)?$/, read: () => ({ kind: "label", label: "newsletter" }) },
  { pattern: /^(?:all\s+)?(?:automated\s+(?:mail|e-?mails?|messages?)|notifications|receipts)$/, read: () => ({ kind: "label", label: "automated" }) },
  { pattern: /^(?:anything|everything|all\s+(?:the\s+)?mail|all\s+e-?mails?)$/, read: () => ({ kind: "all" }) },
];

/** "the board" -> "board"; quotes and a trailing "'s" aside. */
const term = (text: string) =>
  text
    .replace(/["“”'‘’]/g, "")
    .replace(/^(?:the|my|our|a|an)\s+/, "")
    .trim();

function describe(condition: RuleCondition, effect: RuleEffect): string {
  const which =
    condition.kind === "all"
      ? "Every mail"
      : condition.kind === "from"
        ? `Mail from "${condition.who}" (a name, address, organisation, role or contact group)`
        : condition.kind === "about"
          ? `Mail with "${condition.words}" in its subject`
          : condition.label === "newsletter"
            ? "Newsletters and mailings"
            : "Automated mail";
  const plural = condition.kind === "label" && condition.label === "newsletter";
  const what =
    effect.kind === "urgent"
      ? `${plural ? "are" : "is"} ${effect.value ? "" : "never "}marked urgent`
      : `${effect.kind === "label" ? "" : "never "}${plural ? "go" : "goes"} under "${LABEL_WORDS[effect.label]}"`;
  return `${which} ${what}.`;
}

/**
 * Reads a rule the user wrote, one sentence, into a condition SAGE checks itself and what it decides (decision 095):
 * "anything from the board is urgent", "newsletters never need a reply", "mail about the merger needs a reply".
 * Answers null for a sentence it cannot read that way; such a rule goes to the model as the user's instruction.
 */
export function readRule(text: string): ReadRule | null {
  const sentence = text
    .trim()
    .replace(/[.!]+$/, "")
    .replace(/\s+/g, " ")
    .toLowerCase();
  for (const outcome of OUTCOMES) {
    const found = outcome.pattern.exec(sentence);
    if (!found) continue;
    const subject = sentence.slice(0, found.index).trim();
    for (const candidate of CONDITIONS) {
      const match = candidate.pattern.exec(subject);
      if (!match) continue;
      const condition = candidate.read(match);
      if (condition.kind === "from") condition.who = term(condition.who);
      if (condition.kind === "about") condition.words = term(condition.words);
      if ((condition.kind === "from" && !condition.who) || (condition.kind === "about" && !condition.words)) return null;
      return { text: text.trim(), condition, effect: outcome.effect, meaning: describe(condition, outcome.effect) };
    }
    return null;
  }
  return null;
}

/** The mail a rule is checked against: its sender (and who the people pages say they are), its subject, how the model saw it. */
export interface RuleMail {
  fromName: string | null;
  fromAddress: string;
  subject: string;
  sender: SenderInfo | null;
}

const singular = (word: string) => word.replace(/(?<=\w{3})s$/, "");

function fromMatches(who: string, mail: RuleMail): boolean {
  if (who.includes("@")) return who.startsWith("@") ? mail.fromAddress.endsWith(who) : mail.fromAddress === who;
  const wanted = [who, singular(who)];
  const fields = [mail.fromName, mail.fromAddress, mail.sender?.name, mail.sender?.organisation, mail.sender?.role, ...(mail.sender?.groups ?? [])]
    .filter((field): field is string => Boolean(field))
    .map((field) => field.toLowerCase());
  return fields.some((field) => wanted.some((word) => field.includes(word)));
}

export function conditionHolds(condition: RuleCondition, mail: RuleMail, seen?: { label: TriageLabel; bulk: boolean; machine: boolean }): boolean {
  switch (condition.kind) {
    case "all":
      return true;
    case "from":
      return fromMatches(condition.who, mail);
    case "about":
      return mail.subject.toLowerCase().includes(condition.words);
    case "label":
      if (!seen) return false;
      return condition.label === "newsletter" ? seen.label === "newsletter" || seen.bulk : seen.label === "automated" || seen.machine;
  }
}

/** What the rules decide for a mail: the first rule to decide a thing wins. */
export interface RuleDecision {
  label?: { value: TriageLabel; rule: string };
  notLabels: { value: TriageLabel; rule: string; instead: TriageLabel }[];
  urgent?: { value: boolean; rule: string };
}

/**
 * Applies the rules about who wrote and what about (before the model), or with `seen`, the rules about what kind of
 * mail it is (after it). The first rule that decides a label or the urgency wins over later ones and over the model.
 */
export function decide(
  rules: readonly ReadRule[],
  mail: RuleMail,
  seen?: { label: TriageLabel; bulk: boolean; machine: boolean },
  into?: RuleDecision,
): RuleDecision {
  const decision: RuleDecision = into ?? { notLabels: [] };
  for (const rule of rules) {
    if ((rule.condition.kind === "label") !== Boolean(seen)) continue;
    if (!conditionHolds(rule.condition, mail, seen)) continue;
    const { effect } = rule;
    if (effect.kind === "urgent") decision.urgent ??= { value: effect.value, rule: rule.text };
    else if (effect.kind === "label") decision.label ??= { value: effect.label, rule: rule.text };
    else
      decision.notLabels.push({
        value: effect.label,
        rule: rule.text,
        instead: rule.condition.kind === "label" ? rule.condition.label : effect.label === "fyi" ? "needs-reply" : "fyi",
      });
  }
  return decision;
}
