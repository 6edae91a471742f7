import type { SearchResult } from "@sage/contracts/retrieval";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { CommitmentsRepo } from "./commitments.repo.ts";
import { toCommitment } from "./commitments.service.ts";

export const COMMITMENT_TOOL_TEXTS = {
  none: "No open commitments match. The ledger holds only what SAGE found in mail, notes, documents and the user's messages.",
  found: (count: number) => `${count} commitment(s). Cite the ones with a number as [n]; say where the others come from.`,
} as const;

/** A commitment's source as a citation chip: the item, the page when known, the quoted sentence. */
export function commitmentCitation(commitment: ReturnType<typeof toCommitment>): SearchResult | null {
  if (commitment.source.itemId === null) return null;
  return {
    content: commitment.quote,
    score: 1,
    metadata: {
      filename: commitment.source.title,
      source: commitment.source.page === null ? commitment.source.kind : `page ${commitment.source.page}`,
      file_id: commitment.source.itemId,
    },
  };
}

/** listCommitments: "what do I owe whom this week?" over the ledger; read-only. */
export function listCommitmentsTool(deps: { repo: CommitmentsRepo; now: () => Date }): AssistantTool {
  return {
    name: "listCommitments",
    description:
      "List the user's commitments found in their mail, notes, documents and messages: what the user owes others (show mine: " +
      "promises they made, requests made to them) or what others owe the user (show owed-to-me), with due dates and the quoted source.",
    parameters: {
      type: "object",
      properties: {
        show: { type: "string", enum: ["mine", "owed-to-me", "all"], description: "Whose commitments; all when left out" },
        withinDays: { type: "integer", description: "Only those due within this many days from today, overdue included (7 for this week)" },
        status: { type: "string", enum: ["open", "done", "all"], description: "open (default), done, or all" },
      },
    },
    readOnly: true,
    async run(args, context) {
      const show = args.show === "mine" || args.show === "owed-to-me" ? args.show : undefined;
      const status = args.status === "done" || args.status === "all" ? args.status : "open";
      const days =
        typeof args.withinDays === "number" && Number.isFinite(args.withinDays) ? Math.max(0, Math.min(366, Math.round(args.withinDays))) : undefined;
      const dueBy = days === undefined ? undefined : new Date(deps.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
      const commitments = (await deps.repo.list(context.userId, { direction: show, status, dueBy, keptOnly: true })).slice(0, 40).map(toCommitment);
      if (commitments.length === 0) return { result: { commitments: [], message: COMMITMENT_TOOL_TEXTS.none } };
      const citable = commitments.flatMap((commitment) => {
        const citation = commitmentCitation(commitment);
        return citation ? [{ id: commitment.id, citation }] : [];
      });
      const cited = context.cite(citable.map((entry) => entry.citation));
      const numberOf = new Map(citable.map((entry, index) => [entry.id, cited[index]!.n]));
      const results = commitments.map((commitment) => ({
        ...(numberOf.has(commitment.id) ? { n: numberOf.get(commitment.id) } : {}),
        direction: commitment.direction,
        owner: commitment.owner,
        to: commitment.counterparty,
        what: commitment.what,
        dueDate: commitment.dueDate,
        status: commitment.status,
        quote: commitment.quote,
        source:
          commitment.source.kind === "message"
            ? `the user's message in "${commitment.source.title}"`
            : `${commitment.source.kind} "${commitment.source.title}"`,
      }));
      // The quotes come from mail others wrote: the rest of the turn asks before anything leaves SAGE (decision 031).
      const fromMail = commitments.some((commitment) => commitment.source.kind === "mail");
      return {
        result: { commitments: results, message: COMMITMENT_TOOL_TEXTS.found(results.length) },
        ...(fromMail ? { untrustedFrom: ["the mail the commitments come from"] } : {}),
      };
    },
  };
}
