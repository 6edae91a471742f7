/** The chat service's user-facing texts, kept together so the tests and the service agree on them. */
export const CHAT_TEXTS = {
  noResponse: "No response generated",
  savedFallback: "Your request was processed successfully.",
  sendFailed:
    "I'm having trouble processing your request right now. Your reminder has been created successfully, but I couldn't generate a detailed response.",
  invalidConversationId: "Invalid conversationId provided",
  noSearchQuery: "No search query provided.",
  noDocuments: "No relevant documents found for this query.",
  unknownError: "Unknown error",
  webSearchDone: "Search completed successfully",
  reminderToastTitle: "New reminder created",
  reminderToastDescription: "A new reminder was created by SAGE",
  defaultSource: "Knowledge Base",
} as const;

export const chatApiError = (status: number, statusText: string) => `Gemini API error: ${status} ${statusText}`;
export const reminderFailed = (status: number, statusText: string, body: string) => `Failed to create reminder: ${status} ${statusText} - ${body}`;
export const searchHttpError = (status: number, statusText: string) => `Search error: ${status} ${statusText}`;
export const searchException = (message: string) => `Search error: ${message}`;
export const foundDocuments = (count: number) => `Found ${count} relevant document(s).`;
export const webSearchHttpError = (status: number, statusText: string) => `Web search error: ${status} ${statusText}`;
export const followUpFailed = (functionName: string) => `I've completed your request to ${functionNameInWords(functionName)}.`;
export const followUpException = (functionName: string) =>
  `I've processed your request, but encountered an issue with the follow-up response. The ${functionNameInWords(functionName)} operation was completed successfully.`;
export const emptyFollowUp = (functionName: string) => `${functionName} completed successfully`;

/** createReminder -> "create reminder". */
export function functionNameInWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .trim();
}
