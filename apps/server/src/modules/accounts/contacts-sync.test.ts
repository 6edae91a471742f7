import { describe, expect, it } from "vitest";
import type { CarddavConnection } from "../../providers/contacts/carddav-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import { UNEXPECTED_SYNC_FAILURE } from "./calendar-sync.ts";
import { syncContactsAccount, type ContactCardsRepo, type ContactsSyncDeps } from "./contacts-sync.ts";

describe("a contacts sync that stops on an unexpected error (issue 52 item 3)", () => {
  it("is logged with its cause and the account's id, and the account says the sync stopped", async () => {
    const account = {
      id: 52,
      userId: 3,
      kind: "contacts",
      settings: JSON.stringify({ carddav: { url: "https://dav.example/addressbooks/anna/", user: "anna" } }),
      secrets: "sealed",
    } as AccountRow;
    const cause = new TypeError("Cannot read properties of undefined (reading 'vcard')");
    const updates: Array<Partial<AccountRow>> = [];
    const logged: Array<{ message: string; error?: unknown }> = [];
    const deps: ContactsSyncDeps = {
      repo: { findById: async () => account, update: async (_id: number, patch: Partial<AccountRow>) => void updates.push(patch) } as unknown as AccountsRepo,
      cards: { replace: async () => 0 } as unknown as ContactCardsRepo,
      box: { open: () => JSON.stringify({ password: "secret" }) } as unknown as SecretBox,
      rule: { allowPrivate: false, allowHosts: [] },
      connectCarddav: async () => ({ cards: async () => Promise.reject(cause) }) as unknown as CarddavConnection,
      warn: (message, error) => void logged.push({ message, error }),
    };
    await expect(syncContactsAccount(deps, 52)).rejects.toBe(cause);
    // Before: the account said "The sync stopped on an unexpected error" and the log said nothing.
    expect(logged).toEqual([{ message: "contacts account 52: the sync stopped on an unexpected error", error: cause }]);
    expect(updates.at(-1)).toEqual({ status: "error", error: UNEXPECTED_SYNC_FAILURE });
  });
});
