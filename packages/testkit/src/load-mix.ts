/** One request of an autocannon run; `setupRequest` gives each sent message its own text. */
export interface MixRequest {
  method: "GET" | "POST";
  path: string;
  body?: string;
  setupRequest?: (request: { body?: string }) => { body?: string };
}

/**
 * What an executive's open window keeps asking while notes are written: the conversation list, a conversation and its
 * messages, a new message, a search, relevant files, reminders. The soak test and the notes bench send this same mix.
 */
export function readWriteMix(conversationId: number): MixRequest[] {
  let counter = 0;
  return [
    { method: "GET", path: "/api/conversations" },
    { method: "GET", path: `/api/conversations/${conversationId}/messages` },
    {
      method: "POST",
      path: `/api/conversations/${conversationId}/messages`,
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ role: "user", content: `Load message ${++counter}` }) }),
    },
    { method: "POST", path: "/api/search", body: JSON.stringify({ query: "travel budget hotels", limit: 5 }) },
    { method: "POST", path: "/api/recommend-files", body: JSON.stringify({ conversation_id: conversationId, query_text: "conference fees" }) },
    { method: "GET", path: "/api/reminders" },
    { method: "GET", path: `/api/conversations/${conversationId}` },
  ];
}
