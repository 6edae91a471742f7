import { apiFetch } from "./api-client";
import { readEventStream, type StreamEvent } from "./read-event-stream";

/** A streamed reply's events, or the JSON body of a reply that did not stream. */
export type EventStreamReply = { events: AsyncGenerator<StreamEvent> } | { json: unknown };

/**
 * POSTs a JSON body to a route that answers server-sent events, read from the fetch body as they
 * arrive. Aborting `signal` (the Stop button) ends both the request and the stream.
 */
export async function postEventStream(path: string, body: unknown, signal?: AbortSignal): Promise<EventStreamReply> {
  const response = await apiFetch(path, { method: "POST", body, signal });
  const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (response.body && streamed) return { events: readEventStream(response.body) };
  return { json: await response.json() };
}
