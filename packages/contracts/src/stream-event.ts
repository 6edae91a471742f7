import type { z } from "zod";

/**
 * How SAGE writes every server-sent event stream: an event is one member of its protocol's discriminated union;
 * its `type` is the `event:` name and its other fields are the one JSON `data:` line.
 */
export interface StreamEvent {
  type: string;
}

/** The `event:` name and `data:` object of an event. */
export function toWireEvent<E extends StreamEvent>(event: E): { name: E["type"]; data: Omit<E, "type"> } {
  const { type, ...data } = event;
  return { name: type, data };
}

/**
 * An event read from the wire, as its protocol's union: `unknown` for a name the protocol does not have (a newer
 * server), `malformed` for a known name whose data does not match.
 */
export type WireEventResult<E> = { kind: "event"; event: E } | { kind: "unknown"; name: string } | { kind: "malformed"; name: string };

/** A protocol: its union, and the event names it has. */
export interface StreamProtocol<E extends StreamEvent> {
  schema: z.ZodType<E>;
  names: ReadonlySet<string>;
}

export function fromWireEvent<E extends StreamEvent>(protocol: StreamProtocol<E>, name: string, data: unknown): WireEventResult<E> {
  if (!protocol.names.has(name)) return { kind: "unknown", name };
  if (!data || typeof data !== "object" || Array.isArray(data)) return { kind: "malformed", name };
  const parsed = protocol.schema.safeParse({ ...data, type: name });
  return parsed.success ? { kind: "event", event: parsed.data } : { kind: "malformed", name };
}
