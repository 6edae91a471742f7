import type { TestApp } from "./test-app.ts";

/**
 * An account as Settings > Accounts leaves it after a good connection, without a server behind it: the tests that
 * then file mail or events as its sync would (the ledger, the briefing, dossiers, triage).
 */
export async function seedAccount(
  t: TestApp,
  kind: "mail" | "calendar",
  options: { userId?: number; name?: string; settings?: object; at?: string } = {},
): Promise<{ id: number }> {
  const at = options.at ?? new Date().toISOString();
  const settings = options.settings ?? (kind === "mail" ? { imap: { user: "me@example.com" } } : {});
  const row = await t.store.db
    .insertInto("accounts")
    .values({
      userId: options.userId ?? 3,
      kind,
      name: options.name ?? (kind === "mail" ? "Work" : "Work calendar"),
      settings: JSON.stringify(settings),
      secrets: null,
      status: "ok",
      createdAt: at,
      updatedAt: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row;
}
