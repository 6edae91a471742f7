import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { Database } from "../../store/schema.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { createRemindersRepo } from "./reminders.repo.ts";
import { registerReminderRoutes } from "./reminders.routes.ts";
import { createRemindersService } from "./reminders.service.ts";

export function createRemindersModule(deps: { db: Kysely<Database>; conversations: Pick<ConversationsPort, "ownsConversation"> }): AppModule {
  const service = createRemindersService({ repo: createRemindersRepo(deps.db), conversations: deps.conversations });
  return { register: (app) => registerReminderRoutes(app, { service }) };
}
