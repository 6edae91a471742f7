import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";

const TITLE = "Budget review with Anna";
const AGENDA = "Agenda: the Q3 figures and the hiring plan.";

/** A calendar subscription (an .ics URL) holding one meeting in two hours, with Anna invited and an agenda. */
async function serveMeeting() {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const now = Date.now();
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//SAGE e2e//EN",
    "BEGIN:VEVENT",
    "UID:dossier-1@sage.test",
    `DTSTAMP:${stamp(new Date(now))}`,
    `DTSTART:${stamp(new Date(now + 2 * 3_600_000))}`,
    `DTEND:${stamp(new Date(now + 3 * 3_600_000))}`,
    `SUMMARY:${TITLE}`,
    `DESCRIPTION:${AGENDA}`,
    "ATTENDEE;CN=Anna Berg:mailto:anna@acme.example",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
  const server = createServer((request, response) => {
    if (request.url !== "/work.ics") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/calendar; charset=utf-8" }).end(ics);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/work.ics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the Today panel's Prepare now writes the meeting's dossier, quoting the invitation, and then links it", async ({ page }) => {
  const feed = await serveMeeting();
  try {
    await signIn(page);
    const created = await page.request.post("/api/accounts", { data: { kind: "calendar", name: "Work calendar", icsUrl: feed.url } });
    expect(created.status(), await created.text()).toBe(201);
    await expect.poll(async () => (await (await page.request.get("/api/accounts")).json())[0]?.counts?.events, { message: "the subscription is read" }).toBe(1);

    await page.goto("/conversations");
    const row = page.getByTestId("today-panel").getByRole("region", { name: "Next meetings" }).getByRole("listitem").filter({ hasText: TITLE });
    await row.getByRole("button", { name: `Prepare now a dossier for ${TITLE}` }).click();

    // The dossier opens in the meeting's own conversation: the invitation's words, quoted as the organiser's.
    await expect(page).toHaveURL(/\/conversations\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Meetings: ${TITLE}`);
    await expect(page.getByText(`The invitation says: "${AGENDA}"`)).toBeVisible();

    // Back on the list, the row links the dossier instead of offering to prepare one.
    await page.goto("/conversations");
    const link = page.getByTestId("today-panel").getByRole("link", { name: `Dossier for ${TITLE}` });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Meetings: ${TITLE}`);
  } finally {
    await feed.close();
  }
});
