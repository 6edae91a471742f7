import type { Kysely, Selectable } from "kysely";
import type { NotificationKind } from "@sage/contracts/channels";
import type { ChannelsTable, Database } from "../../store/schema.ts";

export type ChannelRow = Selectable<ChannelsTable>;
export type OutboxRow = Selectable<Database["channelOutbox"]>;

/** SQL for channels: the channels, refusals, the inbox and outbox, and where news goes. */
export function createChannelsRepo(db: Kysely<Database>) {
  return {
    list: (userId: number) => db.selectFrom("channels").selectAll().where("userId", "=", userId).orderBy("id").execute(),
    get: (userId: number, id: number) => db.selectFrom("channels").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),
    byId: (id: number) => db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst(),
    all: () => db.selectFrom("channels").selectAll().orderBy("id").execute(),
    byIdentity: (identity: string) => db.selectFrom("channels").selectAll().where("identity", "=", identity).executeTakeFirst(),
    async insert(
      values: Pick<ChannelRow, "userId" | "kind" | "name" | "identity" | "secrets" | "settings" | "pairingHash" | "pairingExpiresAt" | "createdAt">,
    ) {
      const row = await db.insertInto("channels").values(values).returning("id").executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async update(id: number, values: Partial<Omit<ChannelRow, "id" | "userId" | "kind">>) {
      await db.updateTable("channels").set(values).where("id", "=", id).execute();
    },
    async remove(userId: number, id: number) {
      const removed = await db.deleteFrom("channels").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(removed.numDeletedRows) > 0;
    },

    /** Claims (or renews) the right to listen to a channel: free, already ours, or its last claim ran out. */
    async claimListener(id: number, owner: string, nowMs: number, leaseMs: number) {
      const claimed = await db
        .updateTable("channels")
        .set({ listenerOwner: owner, listenerExpiresMs: nowMs + leaseMs })
        .where("id", "=", id)
        .where((where) => where.or([where("listenerOwner", "is", null), where("listenerOwner", "=", owner), where("listenerExpiresMs", "<", nowMs)]))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) > 0;
    },
    async releaseListener(id: number, owner: string) {
      await db.updateTable("channels").set({ listenerOwner: null, listenerExpiresMs: null }).where("id", "=", id).where("listenerOwner", "=", owner).execute();
    },

    refusals: (channelId: number) => db.selectFrom("channelRefusals").selectAll().where("channelId", "=", channelId).execute(),
    refusal: (channelId: number, sender: string) =>
      db.selectFrom("channelRefusals").selectAll().where("channelId", "=", channelId).where("sender", "=", sender).executeTakeFirst(),
    /** Counts one more refused message from a sender; answers the row as it now is. */
    async refuse(channelId: number, sender: string, title: string, at: string, wrongCode: boolean) {
      await db
        .insertInto("channelRefusals")
        .values({ channelId, sender, title, count: 1, wrongCodes: wrongCode ? 1 : 0, firstAt: at, lastAt: at })
        .onConflict((oc) =>
          oc.columns(["channelId", "sender"]).doUpdateSet((eb) => ({
            count: eb("channelRefusals.count", "+", 1),
            wrongCodes: eb("channelRefusals.wrongCodes", "+", wrongCode ? 1 : 0),
            title,
            lastAt: at,
          })),
        )
        .execute();
      return (await db.selectFrom("channelRefusals").selectAll().where("channelId", "=", channelId).where("sender", "=", sender).executeTakeFirst())!;
    },
    /** Marks that the sender got its one reply; false when it already had it. */
    async markReplied(channelId: number, sender: string) {
      const marked = await db
        .updateTable("channelRefusals")
        .set({ replied: 1 })
        .where("channelId", "=", channelId)
        .where("sender", "=", sender)
        .where("replied", "=", 0)
        .executeTakeFirst();
      return Number(marked.numUpdatedRows) > 0;
    },
    async clearWrongCodes(channelId: number) {
      await db.updateTable("channelRefusals").set({ wrongCodes: 0 }).where("channelId", "=", channelId).execute();
    },

    /** Keeps an arrived message; false when it is already kept (a service delivering it twice). */
    async keepInbound(channelId: number, externalId: string, body: string, at: string) {
      const kept = await db
        .insertInto("channelInbox")
        .values({ channelId, externalId, body, createdAt: at })
        .onConflict((oc) => oc.columns(["channelId", "externalId"]).doNothing())
        .executeTakeFirst();
      return Number(kept.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    inbox: (channelId: number) => db.selectFrom("channelInbox").selectAll().where("channelId", "=", channelId).orderBy("id").execute(),
    async doneInbound(id: number) {
      await db.deleteFrom("channelInbox").where("id", "=", id).execute();
    },
    channelsWithInbox: async () => (await db.selectFrom("channelInbox").select("channelId").distinct().execute()).map((row) => row.channelId),

    async queue(channelId: number, body: string, approvalId: string | null, at: string) {
      const row = await db.insertInto("channelOutbox").values({ channelId, body, approvalId, createdAt: at }).returning("id").executeTakeFirstOrThrow();
      return Number(row.id);
    },
    /** The channel's messages not sent yet, oldest first. */
    queued: (channelId: number) =>
      db.selectFrom("channelOutbox").selectAll().where("channelId", "=", channelId).where("status", "=", "queued").orderBy("id").execute(),
    channelsWithQueued: async (nowMs: number) =>
      (await db.selectFrom("channelOutbox").select("channelId").distinct().where("status", "=", "queued").where("nextAttemptMs", "<=", nowMs).execute()).map(
        (row) => row.channelId,
      ),
    /** Takes a queued message to send (one process at a time); false when another holds it. */
    async claimOutgoing(id: number, nowMs: number, holdMs: number) {
      const claimed = await db
        .updateTable("channelOutbox")
        .set({ claimedUntilMs: nowMs + holdMs })
        .where("id", "=", id)
        .where("status", "=", "queued")
        .where((where) => where.or([where("claimedUntilMs", "is", null), where("claimedUntilMs", "<", nowMs)]))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) > 0;
    },
    async sent(id: number, ref: string, at: string) {
      await db.updateTable("channelOutbox").set({ status: "sent", sentRef: ref, sentAt: at, claimedUntilMs: null, error: null }).where("id", "=", id).execute();
    },
    async retryLater(id: number, attempts: number, nextAttemptMs: number, error: string) {
      await db.updateTable("channelOutbox").set({ attempts, nextAttemptMs, error, claimedUntilMs: null }).where("id", "=", id).execute();
    },
    async failed(id: number, error: string) {
      await db.updateTable("channelOutbox").set({ status: "failed", error, claimedUntilMs: null }).where("id", "=", id).execute();
    },
    unsent: async (channelId: number) =>
      Number(
        (
          await db
            .selectFrom("channelOutbox")
            .select((eb) => eb.fn.countAll().as("count"))
            .where("channelId", "=", channelId)
            .where("status", "in", ["queued", "failed"])
            .executeTakeFirstOrThrow()
        ).count,
      ),
    byOutboxId: (id: number) => db.selectFrom("channelOutbox").selectAll().where("id", "=", id).executeTakeFirst(),
    /** The sent approval cards of an approval, wherever they went. */
    cards: (approvalId: string) => db.selectFrom("channelOutbox").selectAll().where("approvalId", "=", approvalId).execute(),
    card: (channelId: number, approvalId: string) =>
      db.selectFrom("channelOutbox").selectAll().where("channelId", "=", channelId).where("approvalId", "=", approvalId).orderBy("id").executeTakeFirst(),
    /** The message of an approval sent to a channel under this reference (the one whose button was pressed). */
    cardBySentRef: (channelId: number, approvalId: string, ref: string) =>
      db
        .selectFrom("channelOutbox")
        .selectAll()
        .where("channelId", "=", channelId)
        .where("approvalId", "=", approvalId)
        .where("sentRef", "=", ref)
        .executeTakeFirst(),
    async markCardAnswered(id: number) {
      await db.updateTable("channelOutbox").set({ approvalId: null }).where("id", "=", id).execute();
    },

    async targets(userId: number): Promise<Partial<Record<NotificationKind, string[]>>> {
      const rows = await db.selectFrom("notificationTargets").selectAll().where("userId", "=", userId).execute();
      return Object.fromEntries(rows.map((row) => [row.kind, JSON.parse(row.targets) as string[]]));
    },
    async saveTargets(userId: number, targets: Record<NotificationKind, string[]>) {
      await db.transaction().execute(async (trx) => {
        for (const [kind, list] of Object.entries(targets) as [NotificationKind, string[]][]) {
          await trx
            .insertInto("notificationTargets")
            .values({ userId, kind, targets: JSON.stringify(list) })
            .onConflict((oc) => oc.columns(["userId", "kind"]).doUpdateSet({ targets: JSON.stringify(list) }))
            .execute();
        }
      });
    },
    /** Users who chose a channel for reminders. */
    usersWithReminderChannels: async () =>
      (await db.selectFrom("notificationTargets").select("userId").where("kind", "=", "reminders").where("targets", "like", "%channel:%").execute()).map(
        (row) => row.userId,
      ),
    /** Records that the reminder was delivered for this due date; false when it already was. */
    async markReminderSent(reminderId: number, dueDate: string) {
      const known = await db.selectFrom("channelSentReminders").select("dueDate").where("reminderId", "=", reminderId).executeTakeFirst();
      if (known?.dueDate === dueDate) return false;
      await db
        .insertInto("channelSentReminders")
        .values({ reminderId, dueDate })
        .onConflict((oc) => oc.column("reminderId").doUpdateSet({ dueDate }))
        .execute();
      return true;
    },
  };
}

export type ChannelsRepo = ReturnType<typeof createChannelsRepo>;
