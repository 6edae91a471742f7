import { describe, expect, it } from "vitest";
import type { Conversation } from "@sage/contracts/conversations";
import type { ConversationsRepo } from "./conversations.repo.ts";
import { createConversationsService } from "./conversations.service.ts";

/** A repo whose list() answers only when the test says so, to interleave a read with a write. */
function controllableRepo() {
  const rows: Conversation[] = [];
  const pendingLists: (() => void)[] = [];
  let listCalls = 0;
  const repo = {
    async list() {
      listCalls += 1;
      const snapshot = [...rows];
      await new Promise<void>((resolve) => pendingLists.push(resolve));
      return snapshot;
    },
    async insert(_userId: number, name: string) {
      const row = { id: rows.length + 1, name, createdAt: new Date().toISOString() };
      rows.push(row);
      return row;
    },
  } as unknown as ConversationsRepo;
  return { repo, release: () => pendingLists.splice(0).forEach((resolve) => resolve()), listCalls: () => listCalls };
}

describe("conversation list cache", () => {
  it("serves repeat reads from memory and rereads after a change", async () => {
    const fake = controllableRepo();
    const service = createConversationsService({ repo: fake.repo });
    const first = service.list(3);
    fake.release();
    expect(await first).toEqual([]);
    expect(await service.list(3)).toEqual([]);
    expect(fake.listCalls()).toBe(1);
    await service.create(3, "Board prep");
    const after = service.list(3);
    fake.release();
    expect((await after).map((item) => item.name)).toEqual(["Board prep"]);
  });

  it("never keeps a list read that overlapped a create, so the new conversation is found next time", async () => {
    const fake = controllableRepo();
    const service = createConversationsService({ repo: fake.repo });
    const inFlight = service.list(3); // reads the empty table, then waits
    const created = await service.create(3, "New Conversation");
    fake.release();
    expect(await inFlight).toEqual([]); // that read began before the create
    const next = service.get(3, created.id);
    fake.release();
    expect(await next).toMatchObject({ id: created.id, name: "New Conversation" });
  });
});
