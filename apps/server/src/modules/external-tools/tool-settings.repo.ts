import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

export interface ToolChoice {
  enabled: boolean;
  /** Null: the default (ask unless the tool is read-only). */
  ask: boolean | null;
}

const key = (server: string, tool: string) => `${server}\u0000${tool}`;

/** Each user's Enabled / Ask before running choices, by server and tool name. */
export function createToolSettingsRepo(db: Kysely<Database>) {
  return {
    async forUser(userId: number): Promise<Map<string, ToolChoice>> {
      const rows = await db.selectFrom("externalToolSettings").select(["server", "tool", "enabled", "ask"]).where("userId", "=", userId).execute();
      return new Map(rows.map((row) => [key(row.server, row.tool), { enabled: row.enabled === 1, ask: row.ask === null ? null : row.ask === 1 }]));
    },
    async save(userId: number, server: string, tool: string, change: { enabled?: boolean; ask?: boolean }) {
      const updatedAt = new Date().toISOString();
      const enabled = change.enabled === undefined ? undefined : change.enabled ? 1 : 0;
      const ask = change.ask === undefined ? undefined : change.ask ? 1 : 0;
      await db
        .insertInto("externalToolSettings")
        .values({ userId, server, tool, enabled: enabled ?? 1, ask: ask ?? null, updatedAt })
        .onConflict((conflict) =>
          conflict.columns(["userId", "server", "tool"]).doUpdateSet({
            ...(enabled === undefined ? {} : { enabled }),
            ...(ask === undefined ? {} : { ask }),
            updatedAt,
          }),
        )
        .execute();
    },
  };
}

export const choiceKey = key;
export type ToolSettingsRepo = ReturnType<typeof createToolSettingsRepo>;
