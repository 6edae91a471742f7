import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { serveIcsFeed } from "../support/ics-feed.ts";

const TITLE = "Budget review with Anna";
const AGENDA = "Agenda: the Q3 figures and the hiring plan.";

/** A calendar subscription (an .ics URL) holding one meeting in two hours, with Anna invited and an agenda. */
const serveMeeting = () =>
  serveIcsFeed([{ title: TITLE, inHours: 2, description: AGENDA, attendees: [{ name: "Anna Berg", address: "anna@acme.example" }] }], "/work.ics");

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
