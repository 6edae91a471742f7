import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A meeting of the feed, starting this many hours from now and lasting one hour. */
export interface FeedMeeting {
  title: string;
  location?: string;
  inHours: number;
  /** The invitation's text (DESCRIPTION). */
  description?: string;
  /** People invited, as `Name <address>`'s two parts. */
  attendees?: { name: string; address: string }[];
}

/**
 * An ICS subscription on a free loopback port (the e2e server may reach private addresses): the given meetings, in
 * UTC, as a calendar service's secret address answers them.
 */
export async function serveIcsFeed(meetings: FeedMeeting[], path = "/board.ics"): Promise<{ url: string; close(): Promise<void> }> {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const now = Date.now();
  const events = meetings.map((meeting, index) =>
    [
      "BEGIN:VEVENT",
      `UID:feed-${now}-${index}@sage.test`,
      `DTSTAMP:${stamp(new Date(now))}`,
      `DTSTART:${stamp(new Date(now + meeting.inHours * 3_600_000))}`,
      `DTEND:${stamp(new Date(now + (meeting.inHours + 1) * 3_600_000))}`,
      `SUMMARY:${meeting.title}`,
      ...(meeting.location ? [`LOCATION:${meeting.location}`] : []),
      ...(meeting.description ? [`DESCRIPTION:${meeting.description}`] : []),
      ...(meeting.attendees ?? []).map((person) => `ATTENDEE;CN=${person.name}:mailto:${person.address}`),
      "END:VEVENT",
    ].join("\r\n"),
  );
  const ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SAGE e2e//EN", ...events, "END:VCALENDAR", ""].join("\r\n");
  const server = createServer((request, response) => {
    if (request.url !== path) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/calendar; charset=utf-8" }).end(ics);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
