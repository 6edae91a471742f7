import { CHAT_TEXTS, reminderFailed } from "@sage/contracts/chat-turn";
import { createReminderRequestSchema } from "@sage/contracts/reminders";
import { AppError } from "../../../http/app-error.ts";
import { statusText } from "../../../http/error-handler.ts";
import type { RemindersPort } from "../../reminders/reminders.module.ts";
import type { AssistantTool } from "./assistant-tool.ts";

/** A failure as the reminder API would have answered it: 'Failed to create reminder: 400 Bad Request - {body}'. */
function failure(status: number, code: string, message: string): Error {
  return new Error(reminderFailed(status, statusText(status), JSON.stringify({ error: message, code })));
}

/** createReminder: the turn's conversation id is injected, whatever the model sent. */
export function createReminderTool(reminders: RemindersPort): AssistantTool {
  return {
    name: "createReminder",
    description: "Create a reminder for the user in the current conversation, after the user confirmed it.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string", description: "Short title of the reminder" },
        description: { type: "string", description: "Optional details" },
        dueDate: { type: "string", description: "Due date as YYYY-MM-DD" },
        priority: { type: "string", enum: ["high", "medium", "low"], description: "Priority" },
      },
      required: ["title", "dueDate", "priority"],
    },
    readOnly: false,
    argumentRoles: { title: "text", description: "text", dueDate: "setting", priority: "setting" },
    persists: true,
    async run(args, context) {
      if (!Number.isSafeInteger(context.conversationId) || context.conversationId <= 0) throw new Error(CHAT_TEXTS.invalidConversationId);
      const parsed = createReminderRequestSchema.safeParse({
        title: args.title,
        description: typeof args.description === "string" ? args.description : "",
        dueDate: args.dueDate,
        priority: args.priority ?? "medium",
        type: "reminder",
        status: "unread",
        conversationId: context.conversationId,
      });
      if (!parsed.success) throw failure(400, "validation_error", parsed.error.issues[0]?.message ?? "Invalid reminder");
      try {
        // Words from a mail or a document: the reminder says so, and is the user's only once kept (issue 47).
        const derived = [context.provenance?.title, context.provenance?.description].find((item) => item?.from === "content");
        const origin = derived ? { derivedFrom: derived.source ?? { title: "content you did not write" }, kept: context.kept ?? false } : undefined;
        const reminder = await reminders.create(context.userId, parsed.data, origin);
        return { result: { success: true, reminder }, reminder };
      } catch (error) {
        if (error instanceof AppError) throw failure(error.status, error.code, error.message);
        throw error;
      }
    },
  };
}
