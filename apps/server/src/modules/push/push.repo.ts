import type { Kysely } from "kysely";
import type { PushKind, PushSettings } from "@sage/contracts/push";
import type { Database } from "../../store/schema.ts";

/** SQL for web push: the key pair, subscriptions, per-kind switches, and reminders already pushed. */
export function createPushRepo(db: Kysely<Database>) {
  async function settings(userId: number): Promise<PushSettings> {
    const row = await db.selectFrom("pushSettings").selectAll().where("userId", "=", userId).executeTakeFirst();
    return { reminders: (row?.reminders ?? 1) === 1, runs: (row?.runs ?? 1) === 1, approvals: (row?.approvals ?? 1) === 1 };
  }
  return {
    keys: () => db.selectFrom("pushKeys").selectAll().where("id", "=", 1).executeTakeFirst(),
    /** Keeps the first pair written (two processes starting at once agree on one). */
    async saveKeys(publicKey: string, privateKey: string, at: string) {
      await db
        .insertInto("pushKeys")
        .values({ id: 1, publicKey, privateKey, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    /** A new pair (the old one could not be opened): subscriptions made with the old public key are void. */
    async replaceKeys(publicKey: string, privateKey: string, at: string) {
      await db.deleteFrom("pushSubscriptions").execute();
      await db.updateTable("pushKeys").set({ publicKey, privateKey, createdAt: at }).where("id", "=", 1).execute();
    },

    subscriptions: (userId: number) => db.selectFrom("pushSubscriptions").selectAll().where("userId", "=", userId).execute(),
    /** An endpoint moves to the user who subscribed it last (a shared browser, another login). */
    async subscribe(userId: number, endpoint: string, p256dh: string, auth: string, at: string) {
      await db
        .insertInto("pushSubscriptions")
        .values({ userId, endpoint, p256dh, auth, createdAt: at })
        .onConflict((oc) => oc.column("endpoint").doUpdateSet({ userId, p256dh, auth, createdAt: at }))
        .execute();
    },
    async unsubscribe(userId: number, endpoint: string) {
      await db.deleteFrom("pushSubscriptions").where("userId", "=", userId).where("endpoint", "=", endpoint).execute();
    },
    async forget(id: number) {
      await db.deleteFrom("pushSubscriptions").where("id", "=", id).execute();
    },
    usersWithDevices: async () => (await db.selectFrom("pushSubscriptions").select("userId").distinct().execute()).map((row) => row.userId),

    settings,
    async saveSettings(userId: number, settings: PushSettings) {
      const values = { reminders: settings.reminders ? 1 : 0, runs: settings.runs ? 1 : 0, approvals: settings.approvals ? 1 : 0 };
      await db
        .insertInto("pushSettings")
        .values({ userId, ...values })
        .onConflict((oc) => oc.column("userId").doUpdateSet(values))
        .execute();
    },
    wants: async (userId: number, kind: PushKind) => (await settings(userId))[kind],

    /** Records that the reminder was pushed for this due date; false when it already was. */
    async markReminderPushed(reminderId: number, dueDate: string) {
      const known = await db.selectFrom("pushSentReminders").select("dueDate").where("reminderId", "=", reminderId).executeTakeFirst();
      if (known?.dueDate === dueDate) return false;
      await db
        .insertInto("pushSentReminders")
        .values({ reminderId, dueDate })
        .onConflict((oc) => oc.column("reminderId").doUpdateSet({ dueDate }))
        .execute();
      return true;
    },
  };
}

export type PushRepo = ReturnType<typeof createPushRepo>;
