import type { ContentSource } from "@sage/contracts/provenance";
import { REMINDER_ERRORS, type CreateReminderInput, type Reminder, type UpdateReminderInput } from "@sage/contracts/reminders";
import { notFound } from "../../http/app-error.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import type { RemindersRepo } from "./reminders.repo.ts";

export function createRemindersService(deps: { repo: RemindersRepo; conversations: Pick<ConversationsPort, "ownsConversation">; now?: () => Date }) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  // Another user's conversation answers exactly like a missing one.
  async function assertConversation(userId: number, conversationId: number) {
    if (!(await deps.conversations.ownsConversation(userId, conversationId))) {
      throw notFound(REMINDER_ERRORS.conversationNotFound, "conversation_not_found");
    }
  }

  return {
    async list(userId: number, conversationId?: number): Promise<Reminder[]> {
      if (conversationId !== undefined) await assertConversation(userId, conversationId);
      return repo.list(userId, conversationId);
    },

    /**
     * A new reminder is always unread, whatever status the client sends. One the assistant made from a mail's or
     * document's words (issue 47) records that source and waits for the user's Keep unless they approved it.
     */
    async create(userId: number, input: CreateReminderInput, origin?: { derivedFrom: ContentSource; kept: boolean }): Promise<Reminder> {
      if (input.conversationId !== undefined) await assertConversation(userId, input.conversationId);
      return repo.insert({
        userId,
        conversationId: input.conversationId ?? null,
        title: input.title,
        description: input.description,
        dueDate: input.dueDate,
        priority: input.priority,
        type: input.type,
        status: "unread",
        createdAt: now().toISOString(),
        ...(origin ? { derivedFrom: JSON.stringify(origin.derivedFrom), kept: origin.kept ? 1 : 0 } : {}),
      });
    },

    /** A changed due date makes the reminder unread again, even if the same patch says 'read'. */
    async update(userId: number, id: number, patch: UpdateReminderInput): Promise<Reminder> {
      const current = await repo.find(userId, id);
      if (!current) throw notFound(REMINDER_ERRORS.reminderNotFound, "reminder_not_found");
      const dueDateChanged = patch.dueDate !== undefined && patch.dueDate !== current.dueDate;
      const { kept, ...fields } = patch;
      const changes = {
        ...definedOnly(fields),
        ...(kept ? { kept: 1 } : {}),
        ...(dueDateChanged ? { status: "unread" } : {}),
        updatedAt: now().toISOString(),
      };
      const updated = await repo.update(userId, id, changes);
      if (!updated) throw notFound(REMINDER_ERRORS.reminderNotFound, "reminder_not_found");
      return updated;
    },

    /** Completing a reminder deletes it. */
    async complete(userId: number, id: number): Promise<void> {
      if (!(await repo.remove(userId, id))) throw notFound(REMINDER_ERRORS.reminderNotFound, "reminder_not_found");
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

export type RemindersService = ReturnType<typeof createRemindersService>;
