import type { KnowledgeItem } from "@sage/contracts/knowledge";

/** `path` is the slash-joined folder names plus the item's own name. */
export function joinPath(parentPath: string | null | undefined, name: string): string {
  return parentPath ? `${parentPath}/${name}` : name;
}

/** Nests a flat list under `items` by parentId (0 = root); orphans whose parent is missing are roots. */
export function nestItems(flat: KnowledgeItem[]): KnowledgeItem[] {
  const byId = new Map(flat.map((item) => [item.id, { ...item, items: [] as KnowledgeItem[] }]));
  const roots: KnowledgeItem[] = [];
  for (const item of byId.values()) {
    const parent = item.parentId ? byId.get(item.parentId) : undefined;
    if (parent) parent.items!.push(item);
    else roots.push(item);
  }
  return roots;
}

/**
 * New paths for an item and its descendants once the item sits under `parentPath` with `name`.
 * `subtree` lists the item first, then descendants, parents always before their children.
 */
export function repath(
  subtree: Array<{ id: number; parentId: number | null; name: string }>,
  top: { name: string; parentPath: string | null },
): Array<{ id: number; path: string }> {
  const paths = new Map<number, string>();
  const result: Array<{ id: number; path: string }> = [];
  subtree.forEach((node, index) => {
    const path = index === 0 ? joinPath(top.parentPath, top.name) : joinPath(paths.get(node.parentId ?? -1), node.name);
    paths.set(node.id, path);
    result.push({ id: node.id, path });
  });
  return result;
}

/** Whether `targetId` is the item itself or one of its descendants (moving there would make a cycle). */
export function isSelfOrDescendant(subtree: Array<{ id: number }>, targetId: number): boolean {
  return subtree.some((node) => node.id === targetId);
}
