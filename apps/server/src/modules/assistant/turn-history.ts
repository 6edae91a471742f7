import type { Message } from "@sage/contracts/conversations";
import type { LlmMessage, LlmPicture } from "../../providers/llm/llm.ts";

/** How much history a turn sends the model: the most recent messages within both bounds. */
export const HISTORY_LIMIT = { messages: 100, characters: 200_000 };

/** The saved messages the model is given before a new user message of `userLength` characters, oldest first. */
export function historyWindow(saved: readonly Message[], userLength: number): Message[] {
  const kept: Message[] = [];
  let characters = userLength;
  for (let index = saved.length - 1; index >= 0 && kept.length + 1 < HISTORY_LIMIT.messages; index--) {
    const message = saved[index]!;
    characters += message.content.length;
    if (characters > HISTORY_LIMIT.characters) break;
    kept.push(message);
  }
  return kept.reverse();
}

/**
 * The saved messages as the model's history (text only, 'model' as the assistant), followed by the new user
 * message as the model sees it (with its knowledge context and attached pictures). The new message always goes,
 * whatever its size. Earlier messages' attachments are not sent again.
 */
export function turnHistory(saved: readonly Message[], userContent: string, pictures: readonly LlmPicture[] = []): LlmMessage[] {
  const earlier = historyWindow(saved, userContent.length).map((message): LlmMessage =>
    message.role === "user" ? { role: "user", content: message.content } : { role: "assistant", content: message.content },
  );
  return [...earlier, { role: "user", content: userContent, ...(pictures.length ? { pictures: [...pictures] } : {}) }];
}
