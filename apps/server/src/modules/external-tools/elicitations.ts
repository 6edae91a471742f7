import { randomUUID } from "node:crypto";
import {
  checkElicitationContent,
  elicitationFields,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationRequest,
  type ElicitationSchema,
} from "@sage/contracts/elicitation";
import type { McpElicitation, McpElicitResult } from "../../providers/mcp/mcp-callers.ts";

interface Waiting {
  userId: number;
  request: ElicitationRequest;
  fields?: ElicitationField[];
  finish(result: McpElicitResult): void;
}

export type AnswerOutcome = { status: "answered" } | { status: "not-found" } | { status: "invalid"; problems: Record<string, string> };

/** A question a server may not ask: a form SAGE cannot show, or a page that is not a web page. */
export class UnaskableQuestion extends Error {}

/**
 * Questions tool servers ask users while their tools run (decision 080): each waits for its user's answer
 * (POST /api/elicitations/{id}), and is cancelled when the turn stops or nobody answers in time. An answer goes only
 * to the server that asked, and only its user can give it.
 */
export function createElicitations(options: { timeoutMs: number }) {
  const waiting = new Map<string, Waiting>();

  return {
    /** Shows the question (`announce` puts it on the turn's stream) and resolves with the user's answer. */
    ask(
      userId: number,
      server: { id: string; name: string },
      question: McpElicitation,
      signal: AbortSignal,
      announce: (request: ElicitationRequest) => void,
    ): Promise<McpElicitResult> {
      let fields: ElicitationField[] | undefined;
      if (question.mode === "form") {
        fields = elicitationFields(question.requestedSchema) ?? undefined;
        if (!fields) throw new UnaskableQuestion("The server asked for fields SAGE cannot show (only plain text, numbers, yes/no and choices)");
      } else if (!question.url || !/^https?:\/\//i.test(question.url) || !URL.canParse(question.url)) {
        throw new UnaskableQuestion("The server asked the user to open something that is not a web page");
      }
      const elicitationId = randomUUID();
      const request: ElicitationRequest = {
        elicitationId,
        serverId: server.id,
        server: server.name,
        message: question.message,
        mode: question.mode,
        ...(question.mode === "form" ? { schema: question.requestedSchema as ElicitationSchema } : { url: question.url }),
      };
      return new Promise<McpElicitResult>((resolve) => {
        const finish = (result: McpElicitResult) => {
          if (!waiting.delete(elicitationId)) return;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        };
        const onAbort = () => finish({ action: "cancel" });
        const timer = setTimeout(() => finish({ action: "cancel" }), options.timeoutMs);
        timer.unref();
        waiting.set(elicitationId, { userId, request, fields, finish });
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        announce(request);
      });
    },

    /** The user's questions waiting for an answer. */
    pending: (userId: number): ElicitationRequest[] => [...waiting.values()].filter((item) => item.userId === userId).map((item) => item.request),

    /** The user's answer: checked against the form (defaults filled in) before it goes to the server. */
    answer(userId: number, elicitationId: string, answer: ElicitationAnswer): AnswerOutcome {
      const item = waiting.get(elicitationId);
      // Another user's question is as unknown as a finished one.
      if (!item || item.userId !== userId) return { status: "not-found" };
      if (answer.action !== "accept") {
        item.finish({ action: answer.action });
        return { status: "answered" };
      }
      if (!item.fields) {
        item.finish({ action: "accept" });
        return { status: "answered" };
      }
      const checked = checkElicitationContent(item.fields, answer.content ?? {});
      if ("problems" in checked) return { status: "invalid", problems: checked.problems };
      item.finish({ action: "accept", content: checked.content });
      return { status: "answered" };
    },

    closeAll() {
      for (const item of [...waiting.values()]) item.finish({ action: "cancel" });
    },
  };
}

export type Elicitations = ReturnType<typeof createElicitations>;
