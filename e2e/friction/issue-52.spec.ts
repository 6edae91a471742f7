import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { messageInput, send, turnDone } from "../support/chat.ts";
import { serveIcsFeed } from "../support/ics-feed.ts";
import { auditLayout } from "../support/layout-audit.ts";
import { toastWith } from "../support/toasts.ts";

/**
 * Issue 52 ("What a new user ... tripped over this week"): the items a person sees, as they see them now. Others'
 * browser tests live beside their screens (docs/friction.md maps every item to its tests).
 */

test("item 14: New Conversation puts the cursor in the message box; on a conversation, the first Tab skips to it", async ({ page }) => {
  test.setTimeout(120_000);
  await fakeGemini.reset();
  await signIn(page);
  await page.goto("/conversations");
  await page.getByRole("button", { name: "New Conversation" }).click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  const box = page.getByRole("textbox", { name: "Message" });
  // Before: no focus, and 16 Tab presses to reach the box.
  await expect(box).toBeFocused();
  await fakeGemini.script({ text: "Noted: the board pack goes out on Friday." });
  await page.keyboard.type("The board pack goes out on Friday.");
  await page.keyboard.press("Enter");
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toContainText("Noted: the board pack goes out on Friday.", {
    timeout: 30_000,
  });

  // A conversation with messages keeps the page as it opens; the first Tab offers the way to the box.
  await page.reload();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toBeVisible();
  await expect(box).not.toBeFocused();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to message box" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
});

test("item 13: a failed model answer shows as an error with its reason in words, and Retry answers the same message", async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  const conversation = await (await page.request.post("/api/conversations", { data: { name: "Board pack" } })).json();
  await page.goto(`/conversations/${conversation.id}`);
  await fakeGemini.script({ error: { status: 429, message: "Resource has been exhausted (e.g. check quota)." } });
  await send(page, "Summarise the board pack");
  // The toast says the same reason (before: "The model service did not answer" for every failure).
  await expect(toastWith(page, "The model service is busy or over its quota: try again in a minute")).toBeVisible();
  await turnDone(page);
  const answer = page.locator('[data-testid="chat-message"][data-role="ai"]').last();
  // Before: "Sorry, the model failed to answer this time. ..." in an answer's bubble, no reason, no Retry.
  await expect(answer).toHaveAttribute("data-failed", "true");
  await expect(answer).toContainText("No answer: the model failed");
  await expect(answer).toContainText(
    "Sorry, the model failed to answer this time: the model service's quota is used up or it is too busy. Nothing you typed was lost: your message is saved above, so you can try again.",
  );
  // Still an error after a reload, with Retry.
  await page.reload();
  const retry = answer.getByRole("button", { name: "Retry" });
  await expect(retry).toBeVisible();
  await fakeGemini.script({ text: "The board pack asks for a decision on the new wing." });
  await retry.click();
  await turnDone(page);
  const answers = page.locator('[data-testid="chat-message"][data-role="ai"]');
  await expect(answers.last()).toContainText("The board pack asks for a decision on the new wing.");
  await expect(answers.last()).not.toHaveAttribute("data-failed", "true");
  // One question, one answer shown: Retry answered the same message rather than sending it again.
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(messageInput(page)).toBeVisible();
});

test("item 15: at 390 px the Today panel's meeting rows show each meeting whole", async ({ page }) => {
  const meetings = [
    { title: "Quarterly board review with the audit committee", location: "Zurich office, room Limmat", inHours: 1 },
    { title: "Call with Anna Keller about the Kestrel acquisition", location: "Phone", inHours: 2 },
    { title: "Investor dinner", location: "Baur au Lac", inHours: 3 },
  ];
  const feed = await serveIcsFeed(meetings);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const created = await page.request.post("/api/accounts", { data: { kind: "calendar", name: "Board calendar", icsUrl: feed.url } });
    expect(created.status(), await created.text()).toBe(201);
    await expect.poll(async () => (await (await page.request.get("/api/accounts")).json())[0]?.counts?.events, { message: "the subscription is read" }).toBe(3);
    await page.goto("/conversations");
    const rows = page.getByTestId("today-panel").getByRole("region", { name: "Next meetings" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    for (const [index, meeting] of meetings.entries()) {
      const row = rows.nth(index);
      await expect(row).toContainText(`${meeting.title} · ${meeting.location}`);
      // Before: "Quarterly board review w…" beside a 128 px time column: the words were there, the eye saw half.
      const shown = await row.getByTestId("meeting-title").evaluate((element) => ({
        cut: element.scrollWidth > element.clientWidth + 1,
        right: element.getBoundingClientRect().right,
      }));
      expect(shown.cut, meeting.title).toBe(false);
      expect(shown.right, meeting.title).toBeLessThanOrEqual(390);
      await expect(row.getByRole("button", { name: `Prepare now a dossier for ${meeting.title}` })).toBeInViewport();
    }
    expect(await auditLayout(page, { scope: '[data-testid="today-panel"]' })).toEqual([]);
  } finally {
    await feed.close();
  }
});

test("item 18: after Approve, the schedule's card is gone at once, with no second copy from the waiting list", async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  const conversation = await (await page.request.post("/api/conversations", { data: { name: "Market brief" } })).json();
  await page.goto(`/conversations/${conversation.id}`);
  await fakeGemini.script(
    {
      functionCalls: [
        {
          name: "scheduleTask",
          args: { title: "Market brief", prompt: "Brief me on the markets", time: "07:00", days: ["MO", "TU", "WE", "TH", "FR"], timezone: "Europe/Zurich" },
        },
      ],
    },
    { text: "Scheduled: the market brief every weekday at 07:00." },
  );
  // The page also asks every 5 s which cards wait in this conversation (a scheduled run's). Once that list has
  // named the live card, later answers are held: a poll that has not come back yet, as on a loaded machine or in a
  // tab in the background.
  let listed!: () => void;
  const cardListed = new Promise<void>((resolve) => (listed = resolve));
  let holdPolls = false;
  await page.route("**/api/approvals", async (route) => {
    if (holdPolls) return; // never answered while the test runs
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes("Market brief")) {
      holdPolls = true;
      listed();
    }
    await route.fulfill({ response, body });
  });
  await send(page, "Every weekday at 7 brief me on the markets");
  const cards = page.getByTestId("approval-card");
  await expect(cards).toHaveCount(1);
  await cardListed;
  await expect(cards).toHaveCount(1);
  await cards.getByRole("button", { name: "Approve" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toContainText("Scheduled: the market brief every weekday at 07:00.");
  // Before: the waiting list's copy of the card took the live card's place after Approve, until the next poll.
  await expect(cards).toHaveCount(0);
});
