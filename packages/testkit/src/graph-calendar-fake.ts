import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** An event as Microsoft Graph holds it (the fields SAGE reads and writes), times in UTC. */
export interface GraphTestEvent {
  id: string;
  subject: string;
  start: string;
  end: string;
  isAllDay?: boolean;
  location?: string;
  attendees?: string[];
  showAs?: "free" | "tentative" | "busy" | "oof" | "workingElsewhere";
  isCancelled?: boolean;
  /** An occurrence of a series: the series' id and its original start. */
  seriesMasterId?: string;
  originalStart?: string;
  changeKey: string;
}

export interface GraphCalendarFake {
  /** The service root, as SAGE is configured with it: http://127.0.0.1:port/v1.0 */
  url: string;
  events: GraphTestEvent[];
  /** Every request: method, path, the token's audience, and the body of a write. */
  requests: Array<{ method: string; path: string; status: number; body?: unknown }>;
  stop(): Promise<void>;
}

/** What the identity server says of a bearer token (RFC 7662). */
type Introspect = (token: string) => Promise<{ active: boolean; aud?: string | string[]; scope?: string }>;

const ALLOWED_QUERY = new Set(["startDateTime", "endDateTime", "$top", "$select", "$skip", "$orderby", "$filter", "$count"]);
const GRAPH = "https://graph.microsoft.com";
const TIME_ZONES = new Set(["UTC", "Europe/Prague", "Central Europe Standard Time", "Pacific Standard Time", "W. Europe Standard Time"]);

/** Graph's dateTimeTimeZone: "2026-12-01T09:00:00.0000000" in UTC (what Prefer: outlook.timezone="UTC" asks for). */
const graphTime = (iso: string) => ({ dateTime: new Date(iso).toISOString().replace(/\.(\d{3})Z$/, ".$10000"), timeZone: "UTC" });

function resource(event: GraphTestEvent) {
  return {
    "@odata.etag": `W/"${event.changeKey}"`,
    id: event.id,
    iCalUId: `040000008200E00074C5B7101A82E008${event.id}`,
    subject: event.subject,
    start: graphTime(event.start),
    end: graphTime(event.end),
    isAllDay: event.isAllDay ?? false,
    isCancelled: event.isCancelled ?? false,
    showAs: event.showAs ?? "busy",
    type: event.seriesMasterId ? "occurrence" : "singleInstance",
    seriesMasterId: event.seriesMasterId ?? null,
    originalStart: event.originalStart ? new Date(event.originalStart).toISOString().replace(".000Z", "Z") : null,
    location: { displayName: event.location ?? "" },
    attendees: (event.attendees ?? []).map((address) => ({ type: "required", status: { response: "none" }, emailAddress: { address, name: address } })),
    organizer: { emailAddress: { address: "exec@example.com", name: "Erika Exec" } },
  };
}

/**
 * A strict stand-in for Microsoft Graph's calendar endpoints (only a fake can exist here), checking what Graph
 * documents: a bearer token that the identity server says is active, for Graph (aud) with a Calendars scope (401
 * InvalidAuthenticationToken, 403 ErrorAccessDenied otherwise); calendarView needs startDateTime and endDateTime
 * (400 ErrorInvalidParameter) and pages with @odata.nextLink; events are written as JSON (415 otherwise) with start and
 * end as dateTimeTimeZone in a known zone; PATCH and DELETE honour If-Match (412); DELETE answers 204 without a body. Unknown query options are a 400, as Graph's are.
 */
export async function startGraphFake(options: { introspect: Introspect; pageSize?: number }): Promise<GraphCalendarFake> {
  const events: GraphTestEvent[] = [];
  const requests: GraphCalendarFake["requests"] = [];
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { error: { code: "generalException", message: String(error) } }));
  });
  const send = (response: ServerResponse, status: number, body?: unknown) => {
    response.writeHead(status, body === undefined ? {} : { "content-type": "application/json; odata.metadata=minimal" });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const error = (code: string, message: string) => ({ error: { code, message, innerError: { "request-id": randomUUID() } } });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://graph.test");
    const log = (status: number, body?: unknown) =>
      requests.push({ method: request.method ?? "", path: url.pathname, status, ...(body === undefined ? {} : { body }) });
    const reply = (status: number, body?: unknown, written?: unknown) => {
      log(status, written);
      send(response, status, body);
    };
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer) return reply(401, error("InvalidAuthenticationToken", "Access token is empty."));
    const token = await options.introspect(bearer);
    if (!token.active) return reply(401, error("InvalidAuthenticationToken", "Access token has expired or is not yet valid."));
    const audiences = [token.aud ?? []].flat();
    const scopes = (token.scope ?? "").split(" ");
    if (!audiences.includes(GRAPH) || !scopes.some((scope) => /^https:\/\/graph\.microsoft\.com\/Calendars\.(Read|ReadWrite)$/.test(scope))) {
      return reply(403, error("ErrorAccessDenied", "Access is denied. Check credentials and try again."));
    }
    for (const name of url.searchParams.keys()) if (!ALLOWED_QUERY.has(name)) return reply(400, error("BadRequest", `Query option '${name}' is not allowed.`));
    const writes = scopes.includes(`${GRAPH}/Calendars.ReadWrite`);

    if (request.method === "GET" && url.pathname === "/v1.0/me/calendarView") {
      const from = Date.parse(url.searchParams.get("startDateTime") ?? "");
      const to = Date.parse(url.searchParams.get("endDateTime") ?? "");
      if (Number.isNaN(from) || Number.isNaN(to)) {
        return reply(
          400,
          error("ErrorInvalidParameter", "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime."),
        );
      }
      const top = Math.min(Number(url.searchParams.get("$top") ?? options.pageSize ?? 10), options.pageSize ?? 1000);
      const skip = Number(url.searchParams.get("$skip") ?? 0);
      const inWindow = events
        .filter((event) => Date.parse(event.start) < to && Date.parse(event.end) > from)
        .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      const page = inWindow.slice(skip, skip + top);
      const next = new URL(url.href.replace("http://graph.test", `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      next.searchParams.set("$skip", String(skip + top));
      return reply(200, { value: page.map(resource), ...(skip + top < inWindow.length ? { "@odata.nextLink": next.href } : {}) });
    }

    const eventPath = /^\/v1\.0\/me\/events(?:\/([^/]+))?$/.exec(url.pathname);
    if (eventPath?.[1] && request.method === "DELETE") {
      // DELETE /me/events/{id}: 204 No Content; an occurrence's id deletes that occurrence only; If-Match as for PATCH.
      if (!writes) return reply(403, error("ErrorAccessDenied", "Access is denied. Check credentials and try again."));
      const index = events.findIndex((entry) => entry.id === decodeURIComponent(eventPath[1] ?? ""));
      if (index < 0) return reply(404, error("ErrorItemNotFound", "The specified object was not found in the store."));
      const ifMatch = request.headers["if-match"];
      if (ifMatch && ifMatch !== `W/"${events[index]!.changeKey}"`)
        return reply(412, error("ErrorIrresolvableConflict", "The change key passed in the request does not match the current change key for the item."));
      events.splice(index, 1);
      return reply(204);
    }
    if (eventPath && (request.method === "POST" || request.method === "PATCH")) {
      if (!writes) return reply(403, error("ErrorAccessDenied", "Access is denied. Check credentials and try again."));
      if (!/^application\/json\b/.test(request.headers["content-type"] ?? ""))
        return reply(415, error("UnsupportedMediaType", "Content-Type must be application/json."));
      let body: Record<string, any>;
      try {
        body = JSON.parse(await readBody(request)) as Record<string, any>;
      } catch {
        return reply(400, error("BadRequest", "Unable to read JSON request payload."));
      }
      for (const field of ["start", "end"]) {
        const value = body[field];
        if (value === undefined && request.method === "PATCH") continue;
        if (typeof value?.dateTime !== "string" || Number.isNaN(Date.parse(`${value.dateTime}Z`)))
          return reply(400, error("ErrorInvalidRequest", `${field} must be a dateTimeTimeZone.`));
        if (!TIME_ZONES.has(value.timeZone))
          return reply(400, error("TimeZoneNotSupportedException", `A valid TimeZone value must be specified. '${value.timeZone}' is not.`));
      }
      const fields = {
        ...(typeof body.subject === "string" ? { subject: body.subject } : {}),
        ...(body.start ? { start: new Date(`${body.start.dateTime}Z`).toISOString() } : {}),
        ...(body.end ? { end: new Date(`${body.end.dateTime}Z`).toISOString() } : {}),
        ...(body.location ? { location: String(body.location.displayName ?? "") } : {}),
        ...(Array.isArray(body.attendees) ? { attendees: body.attendees.map((attendee: any) => String(attendee.emailAddress?.address ?? "")) } : {}),
      };
      if (request.method === "POST") {
        if (eventPath[1]) return reply(405, error("ErrorInvalidRequest", "Method not allowed."));
        const created: GraphTestEvent = { id: `AAMk${randomUUID().replace(/-/g, "")}`, subject: "", start: "", end: "", ...fields, changeKey: randomUUID() };
        if (!created.start || !created.end || Date.parse(created.end) < Date.parse(created.start))
          return reply(400, error("ErrorInvalidRequest", "The event's end is before its start."));
        events.push(created);
        return reply(201, resource(created), body);
      }
      const event = events.find((entry) => entry.id === decodeURIComponent(eventPath[1] ?? ""));
      if (!event) return reply(404, error("ErrorItemNotFound", "The specified object was not found in the store."));
      const ifMatch = request.headers["if-match"];
      if (ifMatch && ifMatch !== `W/"${event.changeKey}"`)
        return reply(412, error("ErrorIrresolvableConflict", "The change key passed in the request does not match the current change key for the item."));
      Object.assign(event, fields, { changeKey: randomUUID() });
      return reply(200, resource(event), body);
    }
    return reply(400, error("BadRequest", `Unsupported request: ${request.method} ${url.pathname}`));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1.0`,
    events,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
