import { turnProtocol } from "@sage/contracts/chat-turn";
import { fromWireEvent, type StreamEvent, type StreamProtocol } from "@sage/contracts/stream-event";

/**
 * Parses a server-sent event body into [event, data] pairs; an event its protocol does not have, or whose data
 * does not match its contract, fails the test.
 */
export function streamEvents<E extends StreamEvent>(body: string, protocol: StreamProtocol<E>): [string, any][] {
  return body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const name = /^event: (.*)$/m.exec(block)![1]!;
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!);
      const read = fromWireEvent(protocol, name, data);
      if (read.kind !== "event") throw new Error(`The stream sent a ${read.kind} "${name}" event: ${JSON.stringify(data)}`);
      return [name, data];
    });
}

/** A turn's events (POST /api/conversations/{id}/turn), each checked against the turn's protocol. */
export const turnEvents = (body: string) => streamEvents(body, turnProtocol);
