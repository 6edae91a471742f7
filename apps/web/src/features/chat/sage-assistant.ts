import type { Tools } from "@sage/contracts/assistant";

/** The persona SAGE, told to confirm reminders and to fall back to a web search by itself. */
export const SAGE_SYSTEM_INSTRUCTION = [
  "You are SAGE, the personal AI assistant of a senior executive.",
  "You draft emails, outline presentations, set reminders, search the user's uploaded documents and search the web for current information.",
  "Before finalising a reminder, ask the user to confirm its title, due date and priority, and only then call createReminder.",
  "Due dates are YYYY-MM-DD.",
  "Use searchDocuments to look in the user's documents. When a document search returns nothing, run performWebSearch automatically, in English, without asking the user.",
  "Be concise and use Markdown (lists, tables) where it helps.",
].join(" ");

/** The function declarations sent with every chat call; the chat service runs them in the browser. */
export const SAGE_TOOLS: Tools = [
  {
    functionDeclarations: [
      {
        name: "createReminder",
        description: "Create a reminder for the user in the current conversation, after the user confirmed it.",
        parameters: {
          type: "OBJECT",
          properties: {
            title: { type: "STRING", description: "Short title of the reminder" },
            description: { type: "STRING", description: "Optional details" },
            dueDate: { type: "STRING", description: "Due date as YYYY-MM-DD" },
            priority: { type: "STRING", enum: ["high", "medium", "low"], description: "Priority" },
            conversationId: { type: "STRING", description: "The current conversation id (filled in by the app)" },
          },
          required: ["title", "dueDate", "priority", "conversationId"],
        },
      },
      {
        name: "searchDocuments",
        description: "Search the user's uploaded documents and knowledge base.",
        parameters: { type: "OBJECT", properties: { query: { type: "STRING", description: "What to look for" } }, required: ["query"] },
      },
      {
        name: "performWebSearch",
        description: "Search the web for current information. Write the query in English.",
        parameters: { type: "OBJECT", properties: { query: { type: "STRING", description: "The search query, in English" } }, required: ["query"] },
      },
    ],
  },
];
