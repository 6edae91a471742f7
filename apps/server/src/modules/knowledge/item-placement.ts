import { nameFromUrl } from "@sage/contracts/knowledge";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { NewKnowledgeItem } from "../../store/schema.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { joinPath } from "./knowledge-tree.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";

export interface Placement {
  conversationId: number | null;
  parentId: number | null;
  parentPath: string | null;
}

type PlacedFields = Omit<NewKnowledgeItem, "userId" | "conversationId" | "parentId" | "path" | "createdAt" | "updatedAt">;

/** Where new items go, and inserting them there (their path follows from the parent). */
export function createItemPlacement(deps: { repo: KnowledgeRepo; conversations: Pick<ConversationsPort, "ownsConversation"> }) {
  const { repo } = deps;

  /** The conversation must be the user's, the parent one of the user's folders; 0 or none means the root. */
  async function placement(userId: number, input: { conversationId?: number; parentId?: number }): Promise<Placement> {
    const conversationId = input.conversationId ? input.conversationId : null;
    if (conversationId !== null && !(await deps.conversations.ownsConversation(userId, conversationId))) throw notFound("Conversation not found");
    const parentId = input.parentId ? input.parentId : null;
    let parentPath: string | null = null;
    if (parentId !== null) {
      const parent = await repo.getItem(userId, parentId);
      if (!parent) throw notFound("Parent folder not found");
      if (parent.type !== "folder") throw badRequest("The parent must be a folder");
      parentPath = parent.path;
    }
    return { conversationId, parentId, parentPath };
  }

  /** Inserts an item at the placement; answers its id. */
  function insertPlaced(userId: number, where: Placement, fields: PlacedFields): Promise<number> {
    return repo.insertItem({
      ...fields,
      userId,
      conversationId: where.conversationId,
      parentId: where.parentId,
      path: joinPath(where.parentPath, fields.name),
    });
  }

  /** A web link entry where the user put it, named after the URL unless they named it. */
  async function insertUrlItem(
    userId: number,
    where: Placement,
    input: { name?: string; description?: string },
    url: string,
    state: { status: "queued" | "stored"; statusReason?: string },
  ) {
    const name = input.name?.trim() || nameFromUrl(url);
    const id = await insertPlaced(userId, where, { type: "url", name, description: input.description ?? "", url, ...state });
    return { id, name };
  }

  return { placement, insertPlaced, insertUrlItem };
}

export type ItemPlacement = ReturnType<typeof createItemPlacement>;

export function isWebUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}
