/** A message's place in its conversation's tree (decision 045). */
export interface TreeNode {
  id: number;
  parentId: number | null;
  branchRank: number;
}

/** The messages of one conversation as a tree: who follows whom, and which branch is shown. */
export function messageTree<T extends TreeNode>(nodes: readonly T[]) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Map<number | null, T[]>();
  for (const node of nodes) {
    const parent = node.parentId !== null && byId.has(node.parentId) ? node.parentId : null;
    const list = children.get(parent);
    if (list) list.push(node);
    else children.set(parent, [node]);
  }
  for (const list of children.values()) list.sort((a, b) => a.id - b.id);
  const leaf = nodes.reduce<T | undefined>((best, node) => (!best || node.branchRank > best.branchRank ? node : best), undefined);

  /** The message and its ancestors, first message first. */
  function pathTo(id: number): T[] {
    const path: T[] = [];
    for (let node = byId.get(id); node; node = node.parentId === null ? undefined : byId.get(node.parentId)) path.push(node);
    return path.reverse();
  }

  return {
    get: (id: number) => byId.get(id),
    pathTo,
    /** What the conversation shows and the model reads: the path that ends at the highest rank. */
    activePath: () => (leaf ? pathTo(leaf.id) : []),
    /** The message's branches (itself included), oldest first. */
    siblingsOf: (id: number) => children.get(byId.get(id)?.parentId ?? null) ?? [],
    /**
     * The message and, below it, the branch shown last at each step down to its end: what the conversation shows
     * once the user steps to this branch.
     */
    descent(id: number): T[] {
      const path: T[] = [];
      for (let node = byId.get(id); node;) {
        path.push(node);
        const below: T[] = children.get(node.id) ?? [];
        node = below.reduce<T | undefined>((best, child) => (!best || child.branchRank > best.branchRank ? child : best), undefined);
      }
      return path;
    },
    /** The highest rank in the conversation (0 when empty). */
    topRank: () => leaf?.branchRank ?? 0,
  };
}
