import { cleanFilename } from "./clean-filename.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";
import { joinPath } from "./knowledge-tree.ts";
import type { Placement } from "./item-placement.ts";

/**
 * Folder chains below a placement, found or created ('Board', then 'Board/2024'): an uploaded folder, a zip or a
 * mail's attachments land in the same folders however often they arrive. Creation is serialised per user, so
 * the files of one folder uploaded side by side never make the same folder twice.
 */
export function createFolderPaths(deps: { repo: KnowledgeRepo }) {
  const { repo } = deps;
  const queues = new Map<number, Promise<unknown>>();

  async function ensureNow(userId: number, where: Placement, names: string[]): Promise<Placement> {
    let at = where;
    // Names from a zip's entries or an uploaded folder's path: what is seen of them, as a file's name is.
    for (const name of names.map((raw) => cleanFilename(raw, "folder"))) {
      const existing = await repo.findFolder({ userId, conversationId: at.conversationId, parentId: at.parentId, name });
      if (existing) {
        at = { conversationId: at.conversationId, parentId: existing.id, parentPath: existing.path };
        continue;
      }
      const path = joinPath(at.parentPath, name);
      const id = await repo.insertItem({ userId, conversationId: at.conversationId, parentId: at.parentId, type: "folder", name, path, status: "ready" });
      at = { conversationId: at.conversationId, parentId: id, parentPath: path };
    }
    return at;
  }

  return {
    /** The placement inside the last of `names`, each folder made if missing. */
    ensure(userId: number, where: Placement, names: string[]): Promise<Placement> {
      if (names.length === 0) return Promise.resolve(where);
      const previous = queues.get(userId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(() => ensureNow(userId, where, names));
      queues.set(userId, next);
      void next
        .finally(() => {
          if (queues.get(userId) === next) queues.delete(userId);
        })
        .catch(() => undefined);
      return next;
    },
  };
}

export type FolderPaths = ReturnType<typeof createFolderPaths>;
