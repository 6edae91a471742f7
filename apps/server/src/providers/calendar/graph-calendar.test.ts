import { startGraphFake, type GraphCalendarFake } from "@sage/testkit/graph-calendar-fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectGraph } from "./graph-calendar.ts";

// Graph's documented DELETE /me/events/{id}: 204 No Content, If-Match honoured (412), an occurrence's id removes that one.
describe("cancelling an event over Microsoft Graph (decision 067)", () => {
  let graph: GraphCalendarFake;
  beforeAll(async () => {
    graph = await startGraphFake({
      introspect: async () => ({ active: true, aud: "https://graph.microsoft.com", scope: "https://graph.microsoft.com/Calendars.ReadWrite" }),
    });
  });
  afterAll(async () => graph?.stop());
  const connection = () => connectGraph({ url: graph.url, accessToken: "token" }, { allowPrivate: false, allowHosts: ["127.0.0.1"] });

  it("deletes the event it read, refuses one changed since, and counts one already gone as cancelled", async () => {
    graph.events.push(
      { id: "AAMk-lunch", subject: "Lunch", start: "2026-06-09T11:00:00Z", end: "2026-06-09T12:00:00Z", changeKey: "one" },
      {
        id: "AAMk-standup-2",
        subject: "Standup",
        start: "2026-06-10T07:00:00Z",
        end: "2026-06-10T07:15:00Z",
        seriesMasterId: "AAMk-standup",
        changeKey: "two",
      },
      {
        id: "AAMk-standup-3",
        subject: "Standup",
        start: "2026-06-11T07:00:00Z",
        end: "2026-06-11T07:15:00Z",
        seriesMasterId: "AAMk-standup",
        changeKey: "three",
      },
    );
    const [lunch, standup] = await connection().objects({ from: "2026-06-08T00:00:00Z", to: "2026-06-12T00:00:00Z" });

    // Changed in Outlook since SAGE read it: nothing is deleted.
    graph.events[0]!.changeKey = "moved";
    await expect(connection().remove(lunch!.href, lunch!.etag)).rejects.toThrow("changed meanwhile");
    expect(graph.events.map((event) => event.id)).toContain("AAMk-lunch");

    // One date of a series: that occurrence goes, the next stays.
    await connection().remove(standup!.href, standup!.etag);
    expect(graph.events.map((event) => event.id)).toEqual(["AAMk-lunch", "AAMk-standup-3"]);
    const deleted = graph.requests.filter((request) => request.method === "DELETE");
    expect(deleted.map((request) => [request.path, request.status])).toEqual([
      ["/v1.0/me/events/AAMk-lunch", 412],
      ["/v1.0/me/events/AAMk-standup-2", 204],
    ]);

    await expect(connection().remove("AAMk-standup-2", null)).resolves.toBeUndefined();
  });
});
