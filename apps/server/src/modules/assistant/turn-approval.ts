import { EXTERNAL_TOOL_TEXTS, type ApprovalRequest } from "@sage/contracts/external-tools";
import type { CallProvenance } from "@sage/contracts/provenance";
import { callWords } from "./provenance/call-words.ts";
import { provenanceOf, type ArgumentDecision, type ArgumentRole, type TurnProvenance } from "./provenance/turn-provenance.ts";
import type { AssistantTool } from "./tools/assistant-tool.ts";

export type ApprovalAnswer = "approved" | "declined" | "timed-out";
/** What a card says besides the call: why SAGE asks, how risky its values are, whether it is a memory to keep. */
export type ApprovalCard = Pick<ApprovalRequest, "reason" | "kind" | "risk" | "provenance"> & Partial<Pick<ApprovalRequest, "summary">>;
/** What the card shows: the card, and the call in plain words when the tool can say it. */
export type ApprovalShown = Partial<ApprovalCard> & Pick<ApprovalRequest, "summary" | "conversationId" | "hints">;

/** Where a call waits for its user's answer (the external tools module's approvals: POST /api/approvals/{id}). */
export interface ApprovalPort {
  request(
    userId: number,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    announce: (request: ApprovalRequest) => void,
    card?: ApprovalShown,
  ): Promise<ApprovalAnswer>;
}

export { UNATTENDED_REASON } from "./provenance/call-words.ts";

/** A call's trace: each argument's origin (kept with the call), and the card it needs, if any. */
export interface CallDecision {
  provenance: CallProvenance;
  card: ApprovalCard | null;
}

/**
 * The card a call needs before it runs, decided by where its values came from (issue 47, decision 062; it
 * replaces decision 031's whole-turn taint). Every call's arguments are traced (turn-provenance.ts); then:
 *   - a tool that always asks (sendEmail, createEvent, deleting, sharing, an external tool with "Ask before
 *     running", scheduleTask): one card, red when a value came from content, calm ("As you asked") otherwise;
 *   - a call that sends its arguments out of SAGE without changing anything (an external read-only tool, a web
 *     search): a card when an argument carries content-derived values or the user's private data (memories the user
 *     did not type here); in a scheduled run, every external call;
 *   - a draft: a card when a recipient is not the user's (typed, or someone they write to or keep in memory), or
 *     when its body came from content and a recipient is not among the people the user writes to or keeps;
 *   - a memory the assistant proposes: Keep / Discard when any of it came from content;
 *   - SAGE's own tools (a reminder, a search of the user's documents): no card; what they keep records its origin.
 * A call is red ("content-derived") when a recipient, attendee, link or thing acted on came from content, or its
 * text did and not every recipient is someone the user named, or it would carry private data out after the
 * conversation read someone else's text.
 */
export function approvalFor(tool: AssistantTool, args: Record<string, unknown>, ledger: TurnProvenance, options: { unattended?: boolean } = {}): CallDecision {
  const roles = tool.argumentRoles ?? {};
  const decided = ledger.decide(args, roles);
  const persists = Boolean(tool.proposesMemory || tool.persists);
  // What is kept (a memory, a reminder) counts a word found only in content as content too: it outlives the turn.
  if (persists) for (const item of Object.values(decided)) keepContentWords(item);
  const provenance = provenanceOf(decided);
  const reach = tool.reach ?? "sage";
  const leaves = reach === "outside" || reach === "query";
  const privateData = [...new Set(Object.values(decided).flatMap((item) => item.private))];
  // Issue 47's draft rule: a message body from content, to someone outside the user's people, is a send in waiting.
  const recipients = Object.entries(decided).filter(([name]) => roles[name] === "recipients");
  const draftFromContent = reach === "draft" && decided.body?.provenance.from === "content" && recipients.some(([, item]) => item.outside === true);
  const risk = draftFromContent ? "content-derived" : riskOf(decided, roles, leaves && privateData.length > 0 && ledger.holdsContent);
  const words = () => callWords({ tool, args, decided, roles, ledger, risk, privateData: leaves ? privateData : [], unattended: options.unattended });
  const card = (extra: Partial<ApprovalCard> = {}): CallDecision => ({ provenance, card: { risk, provenance, ...words(), ...extra } });

  if (tool.proposesMemory) return risk === "content-derived" ? card({ kind: "memory" }) : { provenance, card: null };
  if (tool.askFirst) return card();
  if (leaves) {
    if (risk === "content-derived" || privateData.length > 0 || (options.unattended && reach === "outside")) return card();
    return { provenance, card: null };
  }
  if (reach === "draft") {
    const strangers = recipients.some(([, item]) => item.provenance.from === "content");
    return strangers || draftFromContent ? card() : { provenance, card: null };
  }
  return { provenance, card: null };
}

function keepContentWords(item: ArgumentDecision) {
  if (item.provenance.from === "content" || item.contentWords.length === 0) return;
  const first = item.contentWords[0]!;
  item.provenance = { from: "content", source: first.source };
  item.evidence.push(...item.contentWords.map((word) => ({ kind: "name" as const, value: word.word, source: word.source })));
}

function riskOf(
  decided: Record<string, ArgumentDecision>,
  roles: Readonly<Record<string, ArgumentRole>>,
  privateAfterContent: boolean,
): ApprovalRequest["risk"] {
  const entries = Object.entries(decided);
  const recipients = entries.filter(([name]) => roles[name] === "recipients");
  const everyoneNamed = recipients.length > 0 && recipients.every(([, item]) => item.named !== false && item.provenance.from === "user");
  for (const [name, item] of entries) {
    if (item.provenance.from !== "content") continue;
    const role = roles[name] ?? "text";
    if (role !== "text") return "content-derived";
    // A link copied from content is someone else's way in, whoever it goes to.
    if (item.evidence.some((evidence) => evidence.kind === "link") || !everyoneNamed) return "content-derived";
  }
  return privateAfterContent ? "content-derived" : "asked";
}

/** What the model is given back for a call the user did not approve. */
export function notApproved(
  answer: Exclude<ApprovalAnswer, "approved">,
  card: Pick<ApprovalCard, "kind">,
  texts?: AssistantTool["notApprovedTexts"],
): Record<string, unknown> {
  if (answer === "timed-out") return { success: false, declined: true, message: texts?.timedOut ?? EXTERNAL_TOOL_TEXTS.approvalTimedOut };
  if (card.kind === "memory") return { success: false, discarded: true, message: EXTERNAL_TOOL_TEXTS.memoryDiscarded };
  return { success: false, declined: true, message: texts?.declined ?? EXTERNAL_TOOL_TEXTS.declined };
}
