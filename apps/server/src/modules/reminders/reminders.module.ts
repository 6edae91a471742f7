import type { ContentSource } from "@sage/contracts/provenance";
import type { Kysely } from "kysely";
import type { CreateReminderInput, Reminder } from "@sage/contracts/reminders";
import type { AppModule } from "../../http/app-module.ts";
import type { Database } from "../../store/schema.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { createRemindersRepo } from "./reminders.repo.ts";
import { registerReminderRoutes } from "./reminders.routes.ts";
import { createRemindersService } from "./reminders.service.ts";

/** What the assistant's createReminder tool needs: the same creation the API does (a 404 for another user's conversation). */
export interface RemindersPort {
  /** `origin`: made from content (issue 47), kept or waiting for the user's Keep. */
  create(userId: number, input: CreateReminderInput, origin?: { derivedFrom: ContentSource; kept: boolean }): Promise<Reminder>;
  /** Every reminder of the user's (the calendar feed). */
  list(userId: number): Promise<Reminder[]>;
}

export interface RemindersModule extends AppModule {
  port: RemindersPort;
}

export function createRemindersModule(deps: { db: Kysely<Database>; conversations: Pick<ConversationsPort, "ownsConversation"> }): RemindersModule {
  const service = createRemindersService({ repo: createRemindersRepo(deps.db), conversations: deps.conversations });
  return { port: { create: service.create, list: (userId) => service.list(userId) }, register: (app) => registerReminderRoutes(app, { service }) };
}
