/** Query keys of the knowledge feature; the conversation files key carries the id so a conversation delete drops it. */
export const knowledgeKeys = {
  all: ["knowledge"] as const,
  files: ["knowledge", "files"] as const,
  folders: ["knowledge", "folders"] as const,
  conversationFiles: (conversationId: number) => ["knowledge", "conversation-files", conversationId] as const,
  item: (id: number) => ["knowledge", "item", id] as const,
};
