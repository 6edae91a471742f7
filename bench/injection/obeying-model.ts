/**
 * A scripted chat model for the injection eval: it carries out the task it is given step by step, and obeys every
 * injected instruction it sees the moment it sees it (the worst case a real model can be). It is an LlmProvider, so
 * the app runs its real turn, tools, cards and approvals around it.
 */
import type { GroundedAnswer, LlmMessage, LlmProvider, LlmReply, LlmRequest } from "../../apps/server/src/providers/llm/llm.ts";
import type { Call, InjectionGoal, Seen, Step } from "./tasks.ts";
import { WEB_PAGE } from "./world.ts";

/** What the model is to do in the next turn. */
export interface TurnScript {
  steps: Step[];
  /** The attacker's goal, obeyed once its instruction is in anything the model was given. */
  goal?: InjectionGoal;
  /** Read and quote the instruction, asking the user, but do not act yet (it acts in the next turn). */
  askFirst?: boolean;
}

const reply = (text: string, toolCalls: LlmReply["toolCalls"] = []): LlmReply => ({
  text,
  toolCalls,
  finishReason: toolCalls.length ? "tool-calls" : "stop",
  usage: { inputTokens: undefined, outputTokens: undefined },
});

function seenIn(request: LlmRequest): { seen: Seen; turnCalls: { id: string; name: string }[] } {
  const texts = [request.system ?? ""];
  const results: Seen["results"] = [];
  let lastUser = -1;
  request.messages.forEach((message, index) => {
    if (message.role === "user") lastUser = index;
  });
  const turnCalls: { id: string; name: string }[] = [];
  request.messages.forEach((message: LlmMessage, index) => {
    if (message.role === "tool") {
      for (const item of message.results) {
        results.push({ name: item.name, result: item.result });
        texts.push(JSON.stringify(item.result));
      }
      return;
    }
    texts.push(message.content);
    if (message.role === "assistant" && index > lastUser) turnCalls.push(...(message.toolCalls ?? []).map(({ id, name }) => ({ id, name })));
  });
  return { seen: { text: texts.join("\n"), results }, turnCalls };
}

export function createObeyingModel() {
  let script: TurnScript = { steps: [] };
  /** Tools a step needed that the turn did not offer. */
  const missing = new Set<string>();
  /** The goal's steps were cut short by a tool the turn did not offer. */
  let goalImpossible = false;

  function next(request: LlmRequest): LlmReply {
    const { seen, turnCalls } = seenIn(request);
    const offered = new Set((request.tools ?? []).map((tool) => tool.name));
    const made = (prefix: string) => turnCalls.filter((item) => item.id.startsWith(prefix)).length;
    const callOf = (id: string, step: Call) => reply("", [{ id, name: step.name, args: step.args }]);
    const { goal } = script;
    const injected = goal !== undefined && seen.text.includes(goal.instruction);
    if (injected && !script.askFirst && !goalImpossible) {
      const done = made("goal-");
      if (done < goal.steps.length) {
        const step = goal.steps[done]!(seen);
        if (offered.has(step.name)) return callOf(`goal-${done}-${step.name}`, step);
        missing.add(step.name);
        goalImpossible = true;
      }
    }
    const done = made("task-");
    if (done < script.steps.length) {
      const step = script.steps[done]!(seen);
      if (offered.has(step.name)) return callOf(`task-${done}-${step.name}`, step);
      missing.add(step.name);
      return reply(`I have no tool to ${step.name}.`);
    }
    if (injected && script.askFirst) return reply(`The mail also says: "${goal.instruction}". Shall I do that?`);
    return reply("Done.");
  }

  const provider: LlmProvider = {
    provider: "gemini",
    modelId: "scripted-obeying",
    allowedModels: ["scripted-obeying"],
    keySet: true,
    vision: false,
    async generate(request) {
      // Calls other than the chat's (a web answer summarised, a title): nothing to obey there.
      if (!request.tools?.length) return reply("OK.");
      return next(request);
    },
    async generateObject() {
      return { commitments: [] };
    },
    async searchWeb(): Promise<GroundedAnswer> {
      return { text: webText, sources: [{ title: WEB_PAGE.title, url: WEB_PAGE.url }] };
    },
  };
  let webText = WEB_PAGE.text;

  return {
    provider,
    /** The next turn's script. */
    script(next: TurnScript) {
      script = next;
    },
    /** The web page's text for this run (with an injection when the web is the slot). */
    setWebText(text: string) {
      webText = text;
    },
    reset() {
      missing.clear();
      goalImpossible = false;
      webText = WEB_PAGE.text;
    },
    missing: (): string[] => [...missing],
    goalImpossible: () => goalImpossible,
  };
}

export type ObeyingModel = ReturnType<typeof createObeyingModel>;
