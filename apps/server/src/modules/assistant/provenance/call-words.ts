import type { ApprovalRequest } from "@sage/contracts/external-tools";
import type { AssistantTool } from "../tools/assistant-tool.ts";
import type { ArgumentDecision, ArgumentRole, Evidence, TurnProvenance } from "./turn-provenance.ts";

/** Why a scheduled run asks before a tool that reaches outside SAGE (decision 036). */
export const UNATTENDED_REASON = "SAGE was running a scheduled task on its own; nothing leaves SAGE without your approval.";

/** How a card names an argument ("Message" for body); an argument it does not know keeps its name. */
const LABELS: Record<string, string> = {
  to: "To",
  cc: "Cc",
  attendees: "Invitees",
  subject: "Subject",
  body: "Message",
  title: "Title",
  start: "Starts",
  end: "Ends",
  location: "Place",
  calendar: "Calendar",
  content: "Memory",
  prompt: "Task",
  text: "Text",
  name: "File",
  query: "Search",
  from: "From",
  url: "Link",
};
/** The same in a sentence ("the message repeats ..."). */
const inSentence = (name: string) => (LABELS[name] ?? name).toLowerCase();

const MAX_SENTENCES = 3;

/** One sentence per piece of a value that came from content, naming exactly where. */
function evidenceSentence(name: string, evidence: Evidence): string {
  const where = evidence.source?.title;
  switch (evidence.kind) {
    case "address":
      return where
        ? `${evidence.value} appears only in ${where}; you never wrote it.`
        : `You never wrote ${evidence.value}, and it is not someone you write to or keep in SAGE.`;
    case "link":
      return where ? `The link ${evidence.value} appears only in ${where}; you never wrote it.` : `You never wrote the link ${evidence.value}.`;
    case "code":
      return `${evidence.value} comes from ${where}.`;
    case "quote":
      return `The ${inSentence(name)} repeats text from ${where}.`;
    case "name":
      return `“${evidence.value}” comes from ${where}; you never wrote it.`;
    case "object":
      return where ? `You never named “${evidence.value}”; it comes from ${where}.` : `You never named “${evidence.value}”.`;
    case "act":
      return where ? `You never asked for this; ${where} asks for it.` : "You never asked for this.";
  }
}

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The card's words (issue 47): why SAGE asks, one sentence per content-derived value with its source (red), or "As
 * you asked: to Emma Johnson <emma@...>" (calm); and, for a call with roles, the call itself line by line, people as
 * names and addresses, never JSON.
 */
export function callWords(input: {
  tool: AssistantTool;
  args: Record<string, unknown>;
  decided: Record<string, ArgumentDecision>;
  roles: Readonly<Record<string, ArgumentRole>>;
  ledger: TurnProvenance;
  risk: ApprovalRequest["risk"];
  /** Memories the call would send out of SAGE. */
  privateData: string[];
  unattended?: boolean;
}): { reason?: string; summary?: string[] } {
  const { tool, args, decided, roles, ledger } = input;
  const sentences: string[] = [];
  if (input.unattended && (tool.reach === "outside" || tool.askFirst)) sentences.push(UNATTENDED_REASON);
  const people = (value: unknown) => (Array.isArray(value) ? value : [value]).map((item) => ledger.display(String(item))).join(", ");
  if (input.risk === "content-derived") {
    // Per argument: what carries it out (an address, a link, a code, a thing acted on), else the first copied text.
    const all = Object.entries(decided).flatMap(([name, item]) => {
      const carried = item.evidence.filter((evidence) => evidence.kind !== "quote" && evidence.kind !== "name");
      return (carried.length > 0 ? carried : item.evidence.slice(0, 1)).map((evidence) => evidenceSentence(name, evidence));
    });
    const unique = [...new Set(all)];
    sentences.push(...unique.slice(0, MAX_SENTENCES));
    if (unique.length > MAX_SENTENCES) sentences.push(`And ${unique.length - MAX_SENTENCES} more things you never wrote.`);
  } else {
    const recipients = Object.keys(decided).filter((name) => roles[name] === "recipients" && asList(args[name]).length > 0);
    const to = recipients.map((name) => `${name === "to" ? "to" : inSentence(name)} ${people(args[name])}`).join("; ");
    sentences.push(to ? `As you asked: ${to}.` : "As you asked.");
  }
  if (input.privateData.length > 0) {
    const quoted = input.privateData.map((memory) => `“${memory}”`).join(", ");
    sentences.push(`This sends what SAGE keeps about you (${quoted}) out of SAGE; you did not type it here.`);
    const last = ledger.lastSource();
    if (input.risk === "content-derived" && last) sentences.push(`SAGE read ${last.title} in this conversation: if this request came from there, decline it.`);
  }
  const summary = tool.describeCall || Object.keys(roles).length === 0 ? undefined : summaryOf(args, roles, people);
  return { reason: sentences.join(" "), ...(summary ? { summary } : {}) };
}

const asList = (value: unknown) => (Array.isArray(value) ? value : typeof value === "string" && value ? [value] : []);

/** The call line by line in the order of its roles: "To: Emma Johnson <emma@...>", "Subject: ...", "Message: ...". */
function summaryOf(args: Record<string, unknown>, roles: Readonly<Record<string, ArgumentRole>>, people: (value: unknown) => string): string[] {
  const lines: string[] = [];
  for (const name of Object.keys(roles)) {
    const value = args[name];
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    if (roles[name] === "object" && typeof value === "number") continue;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      // What a change replaces (updateEvent's event as it is), in words.
      const before = value as { title?: string; subject?: string; start?: string; end?: string };
      const what = before.title ?? before.subject;
      if (what) lines.push(`Before: ${what}${before.start ? `, ${before.start}${before.end ? ` to ${before.end}` : ""}` : ""}`);
      continue;
    }
    if (!LABELS[name] && roles[name] !== "text" && roles[name] !== "recipients") continue;
    lines.push(`${LABELS[name] ?? name}: ${roles[name] === "recipients" ? people(value) : shown(value)}`);
  }
  return lines;
}
