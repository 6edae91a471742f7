import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { dropConversationCaches } from "./delete-conversation";

describe("dropConversationCaches", () => {
  it("drops the conversation's messages and files caches, refreshes the list and reminders, keeps other conversations", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const keys = {
      list: ["conversations"],
      detail: ["conversations", "5"],
      messages: ["conversations", "5", "messages"],
      files: ["knowledge", "conversation-files", 5],
      otherFiles: ["knowledge", "conversation-files", 6],
      otherMessages: ["conversations", "6", "messages"],
      reminders: ["reminders"],
    };
    for (const key of Object.values(keys)) client.setQueryData(key, ["cached"]);
    await dropConversationCaches(client, 5);
    for (const key of [keys.detail, keys.messages, keys.files]) expect(client.getQueryData(key), JSON.stringify(key)).toBeUndefined();
    for (const key of [keys.otherFiles, keys.otherMessages]) expect(client.getQueryData(key)).toEqual(["cached"]);
    expect(client.getQueryState(keys.list)!.isInvalidated).toBe(true);
    expect(client.getQueryState(keys.reminders)!.isInvalidated).toBe(true);
  });
});
