import { expect, test, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";
import { send, turnDone } from "../support/chat.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { toastWith } from "../support/toasts.ts";

// One server and one demo user for the whole file: tests run in order and start from no reminders.
test.describe.configure({ mode: "serial" });

interface ApiReminder {
  id: number;
  title: string;
  status: string;
  priority: string;
  dueDate: string;
  conversationId: number | null;
}

/** Local wall-clock time (the browser and this process share the machine's zone). */
const local = (year: number, month: number, day: number, hours = 0, minutes = 0) => new Date(year, month - 1, day, hours, minutes);

async function listReminders(page: Page): Promise<ApiReminder[]> {
  return (await page.request.get("/api/reminders")).json();
}

async function createReminder(page: Page, body: Record<string, unknown>): Promise<ApiReminder> {
  const response = await page.request.post("/api/reminders", { data: body });
  expect(response.status()).toBe(201);
  return response.json();
}

async function createConversation(page: Page, name: string): Promise<number> {
  const response = await page.request.post("/api/conversations", { data: { name } });
  expect(response.ok()).toBe(true);
  return (await response.json()).id;
}

async function removeAllReminders(page: Page) {
  for (const reminder of await listReminders(page)) await page.request.delete(`/api/reminders/${reminder.id}`);
}

const remindersButton = (page: Page) => page.getByRole("button", { name: "Reminders" });
const sheet = (page: Page) => page.getByRole("dialog", { name: "Reminders" });
const unreadBadge = (page: Page) => page.getByTestId("reminders-unread-badge");

test.beforeEach(async ({ page }) => {
  await login(page);
  await removeAllReminders(page);
  await page.reload();
});

test("creates a reminder from the sheet; the server's messages are shown when title or date is missing", async ({ page }) => {
  await remindersButton(page).click();
  await expect(sheet(page).getByRole("tab", { name: "Today (0)" })).toHaveAttribute("aria-selected", "true");
  await expect(sheet(page).getByText("No reminders for today")).toBeVisible();
  for (const [tab, empty] of [
    ["This Week (0)", "No reminders for this week"],
    ["This Month (0)", "No reminders for this month"],
    ["Overdue (0)", "No overdue reminders"],
  ] as const) {
    await sheet(page).getByRole("tab", { name: tab }).click();
    await expect(sheet(page).getByText(empty)).toBeVisible();
  }
  await sheet(page).getByRole("tab", { name: "Today (0)" }).click();

  await sheet(page).getByRole("button", { name: "New Reminder" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Reminder" });
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  await expect(toastWith(page, "Failed to create reminder")).toContainText("Title is required");

  await dialog.getByLabel("Title").fill("Send the board deck");
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  await expect(toastWith(page, "Failed to create reminder")).toContainText("Due date is required");

  await dialog.getByLabel("Description").fill("Q3 numbers, final version");
  const today = new Date();
  await dialog.getByRole("button", { name: new RegExp(today.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" })) }).click();
  await dialog.getByLabel("Time").fill("23:59");
  await dialog.getByRole("radio", { name: "High" }).click();
  const request = page.waitForRequest((r) => r.url().endsWith("/api/reminders") && r.method() === "POST");
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  // The sheet sends an ISO date-time with milliseconds and zone offset, status unread, type reminder.
  const body = (await request).postDataJSON();
  expect(body).toMatchObject({ title: "Send the board deck", priority: "high", status: "unread", type: "reminder" });
  expect(body.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:00\.000[+-]\d{2}:\d{2}$/);

  await expect(toastWith(page, "Reminder created")).toContainText("Your new reminder has been added.");
  await expect(dialog).toBeHidden();
  await expect(sheet(page).getByRole("tab", { name: "Today (1)" })).toBeVisible();
  const row = sheet(page).getByRole("listitem", { name: "Send the board deck" });
  await expect(row).toContainText("Q3 numbers, final version");
  await expect(row).toContainText(`Due ${today.toLocaleDateString("en-US", { month: "short", day: "numeric" })}`);
  await expect(row.getByRole("img", { name: "Reminder, High priority" })).toBeVisible();
  expect((await listReminders(page)).map((reminder) => reminder.title)).toEqual(["Send the board deck"]);
});

test("tabs bucket and count by due date in local time, nearest first", async ({ page }) => {
  // Wednesday 2026-06-10 14:00 local.
  await page.clock.setFixedTime(local(2026, 6, 10, 14, 0));
  const due = (date: Date) => date.toISOString();
  await createReminder(page, { title: "Board call", dueDate: due(local(2026, 6, 10, 17, 0)), priority: "low" });
  await createReminder(page, { title: "Lunch with Ana", dueDate: due(local(2026, 6, 10, 12, 0)), priority: "medium" });
  await createReminder(page, { title: "Friday memo", dueDate: due(local(2026, 6, 12, 9, 0)) });
  await createReminder(page, { title: "Quarter review", dueDate: "2026-06-25", type: "task", priority: "high" });
  await createReminder(page, { title: "Last week's invoice", dueDate: due(local(2026, 6, 3, 9, 0)), type: "alert" });
  await createReminder(page, { title: "July offsite", dueDate: due(local(2026, 7, 15, 9, 0)) });
  await page.reload();

  await remindersButton(page).click();
  const tabs = sheet(page).getByRole("tab");
  await expect(tabs).toHaveText(["Today (2)", "This Week (1)", "This Month (1)", "Overdue (2)"]);
  await expect(sheet(page).getByRole("tab", { name: "Overdue (2)" })).toHaveClass(/text-red-/);

  const rows = (panel: string) => sheet(page).getByRole("tabpanel", { name: panel }).getByTestId("reminder-row");
  const titlesIn = (panel: string) => rows(panel).evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")));
  await expect.poll(() => titlesIn("Today (2)")).toEqual(["Lunch with Ana", "Board call"]);
  await sheet(page).getByRole("tab", { name: "This Week (1)" }).click();
  await expect.poll(() => titlesIn("This Week (1)")).toEqual(["Friday memo"]);
  await sheet(page).getByRole("tab", { name: "This Month (1)" }).click();
  await expect.poll(() => titlesIn("This Month (1)")).toEqual(["Quarter review"]);
  await expect(rows("This Month (1)")).toContainText("Due Jun 25");
  await sheet(page).getByRole("tab", { name: "Overdue (2)" }).click();
  await expect.poll(() => titlesIn("Overdue (2)")).toEqual(["Lunch with Ana", "Last week's invoice"]);

  // The conversation list: Today lists the two due today; the widget has the same counts and the three nearest
  // of the others. Issue 52 item 16: before, "Lunch with Ana" and "Board call" were listed in both.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("today-panel").getByRole("listitem")).toHaveText(["12:00 Lunch with Ana", "17:00 Board call"]);
  const widget = page.getByTestId("upcoming-reminders");
  await expect(widget).toContainText("2 due today · 2 overdue");
  await expect(widget.getByRole("listitem")).toHaveText([/^Friday memo/, /^Last week's invoice/, /^Quarter review/]);
});

test("View Chat opens the linked conversation", async ({ page }) => {
  const conversationId = await createConversation(page, "Board prep");
  await createReminder(page, { title: "Linked one", dueDate: new Date(Date.now() + 60_000).toISOString(), conversationId });
  await createReminder(page, { title: "Loose one", dueDate: new Date(Date.now() + 120_000).toISOString() });
  await page.reload();
  await remindersButton(page).click();
  await expect(sheet(page).getByRole("listitem", { name: "Loose one" }).getByRole("link", { name: "View Chat" })).toHaveCount(0);
  await sheet(page).getByRole("listitem", { name: "Linked one" }).getByRole("link", { name: "View Chat" }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${conversationId}$`));
  await expect(sheet(page)).toBeHidden();
});

test("completing a reminder strikes it through, deletes it and says so", async ({ page }) => {
  await createReminder(page, { title: "Call the bank", dueDate: new Date(Date.now() + 60_000).toISOString() });
  await page.reload();
  await remindersButton(page).click();
  const row = sheet(page).getByRole("listitem", { name: "Call the bank" });
  // The struck-through state lasts until the delete answers (at least 500 ms): hold the answer 2 s, so a loaded
  // machine still sees it.
  await page.route("**/api/reminders/*", async (route) => {
    if (route.request().method() === "DELETE") await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  await row.hover();
  await row.getByRole("button", { name: "Complete Call the bank" }).click();
  await expect(row).toHaveAttribute("data-completing", "true");
  await expect(toastWith(page, "Reminder completed")).toContainText("The reminder has been removed.");
  await expect(row).toBeHidden();
  await expect(sheet(page).getByRole("tab", { name: "Today (0)" })).toBeVisible();
  expect(await listReminders(page)).toEqual([]);
});

test("the badge shows while a reminder is unread, clears when the sheet shows it, and returns on reschedule", async ({ page }) => {
  await expect(remindersButton(page)).toBeVisible();
  await expect(unreadBadge(page)).toHaveCount(0);
  const reminder = await createReminder(page, { title: "Pay rent", dueDate: new Date(Date.now() + 60_000).toISOString() });
  await page.reload();
  await expect(unreadBadge(page)).toBeVisible();

  await remindersButton(page).click();
  await expect(sheet(page).getByRole("listitem", { name: "Pay rent" })).toBeVisible();
  await expect(unreadBadge(page)).toHaveCount(0);
  await expect.poll(async () => (await listReminders(page))[0]?.status).toBe("read");
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(remindersButton(page)).toBeVisible();
  await expect(unreadBadge(page)).toHaveCount(0);

  const patched = await page.request.patch(`/api/reminders/${reminder.id}`, {
    data: { dueDate: new Date(Date.now() + 3_600_000).toISOString() },
  });
  expect((await patched.json()).status).toBe("unread");
  await page.reload();
  await expect(unreadBadge(page)).toBeVisible();
});

test("a reminder the assistant creates in a conversation is in the Reminders sheet without a reload", async ({ page }) => {
  const conversationId = await createConversation(page, "Assistant chat");
  await page.goto(`/conversations/${conversationId}`);
  await remindersButton(page).click();
  await expect(sheet(page).getByText("No reminders for today")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sheet(page)).toHaveCount(0);
  const today = await page.evaluate(() => {
    const now = new Date();
    return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  });
  await fakeGemini.reset();
  await fakeGemini.script(
    {
      text: "Setting that up.",
      functionCalls: [{ name: "createReminder", args: { title: "Renew passport", dueDate: today, priority: "high", conversationId: String(conversationId) } }],
    },
    { text: "Done: Renew passport, today." },
  );
  await send(page, "Remind me to renew my passport today");
  await expect(toastWith(page, "New reminder created")).toBeVisible();
  await turnDone(page);
  await remindersButton(page).click();
  await expect(sheet(page).getByRole("listitem", { name: "Renew passport" })).toBeVisible();
  await expect(sheet(page).getByRole("tab", { name: "Today (1)" })).toBeVisible();
});

test("the conversation panel validates, creates, changes priority and reschedules (unread again)", async ({ page }) => {
  const conversationId = await createConversation(page, "Quarterly planning");
  await page.goto(`/conversations/${conversationId}`);
  const panel = page.getByTestId("conversation-reminders");
  await expect(panel.getByText("No reminders for this conversation")).toBeVisible();

  let posts = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/reminders") && r.method() === "POST") posts++;
  });
  await panel.getByRole("button", { name: "Add Reminder" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Reminder" });
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  await expect(dialog.getByText("Title is required")).toBeVisible();
  await expect(dialog.getByText("Due date is required")).toBeVisible();
  expect(posts).toBe(0);

  // A rule only the server knows: its message is shown in the dialog, and nothing is created.
  await dialog.getByLabel("Title").fill("x".repeat(201));
  await dialog.getByRole("button", { name: "Next month" }).click();
  await dialog.getByRole("button", { name: / 15, \d{4}$/ }).click();
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Title must be at most 200 characters");
  expect(await listReminders(page)).toEqual([]);

  await dialog.getByLabel("Title").fill("Draft the agenda");
  await dialog.getByLabel("Type").selectOption("task");
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  await expect(toastWith(page, "Reminder created")).toContainText("Your new reminder has been added.");
  const row = panel.getByRole("listitem", { name: "Draft the agenda" });
  await expect(row.getByRole("img", { name: "Task, Medium priority" })).toBeVisible();
  const [created] = await listReminders(page);
  expect(created).toMatchObject({ title: "Draft the agenda", conversationId, priority: "medium", status: "unread" });

  await page.request.patch(`/api/reminders/${created!.id}`, { data: { status: "read" } });
  await row.hover();
  await row.getByRole("button", { name: "Edit Draft the agenda" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Reminder" });
  await edit.getByRole("radio", { name: "High" }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(row.getByRole("img", { name: "Task, High priority" })).toBeVisible();
  expect((await listReminders(page))[0]).toMatchObject({ priority: "high", status: "read", dueDate: created!.dueDate });

  await row.hover();
  await row.getByRole("button", { name: "Edit Draft the agenda" }).click();
  await edit.getByRole("button", { name: / 16, \d{4}$/ }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect.poll(async () => (await listReminders(page))[0]?.status).toBe("unread");
  expect((await listReminders(page))[0]?.dueDate).not.toBe(created!.dueDate);
});

test("a reminder falling due while the app is open gives one toast and a system notification", async ({ page, context }) => {
  await context.grantPermissions(["notifications"]);
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    class RecordingNotification {
      static permission = "granted";
      static requestPermission = async () => "granted";
      constructor(title: string, options?: { body?: string }) {
        shown.push(`${title}: ${options?.body ?? ""}`);
      }
    }
    (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
  });
  // A reminder due in two minutes, made before the app opens (as on another device).
  await createReminder(page, { title: "Leave for the airport", dueDate: new Date(Date.now() + 120_000).toISOString() });
  await page.clock.install();
  await page.reload();
  await expect(remindersButton(page)).toBeVisible();
  await expect(unreadBadge(page)).toBeVisible();
  await expect(toastWith(page, "Reminder due")).toHaveCount(0);

  await page.clock.fastForward("03:00");
  await expect(toastWith(page, "Reminder due")).toContainText("Leave for the airport");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications))
    .toEqual(["Reminder due: Leave for the airport"]);
  await page.clock.fastForward("02:00");
  expect(await page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications)).toHaveLength(1);
});

test("the form's Time starts empty (the whole day), so a reminder made for today is not overdue", async ({ page }) => {
  await remindersButton(page).click();
  await sheet(page).getByRole("button", { name: "New Reminder" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Reminder" });
  await expect(dialog.getByLabel("Time")).toHaveValue("");
  await expect(dialog.getByText("Leave empty for the whole day.")).toBeVisible();
  await dialog.getByLabel("Title").fill("Whole-day reminder");
  const today = new Date();
  await dialog.getByRole("button", { name: new RegExp(today.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" })) }).click();
  const request = page.waitForRequest((r) => r.url().endsWith("/api/reminders") && r.method() === "POST");
  await dialog.getByRole("button", { name: "Create Reminder" }).click();
  const ymd = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
  expect((await request).postDataJSON().dueDate).toBe(ymd);
  await expect(sheet(page).getByRole("tab", { name: "Today (1)" })).toBeVisible();
  await expect(sheet(page).getByRole("tab", { name: "Overdue (0)" })).toBeVisible();
});

test("'Notify me when due' tells the user when the browser refuses notifications", async ({ page }) => {
  await page.addInitScript(() => {
    class RefusingNotification {
      static permission: NotificationPermission = "default";
      static async requestPermission(): Promise<NotificationPermission> {
        RefusingNotification.permission = "denied";
        return "denied";
      }
    }
    (window as unknown as { Notification: unknown }).Notification = RefusingNotification;
  });
  await page.reload();
  await remindersButton(page).click();
  await sheet(page).getByRole("button", { name: "Notify me when due" }).click();
  await expect(toastWith(page, "Notifications are blocked")).toContainText("Allow notifications for this site");
  await expect(sheet(page).getByRole("button", { name: "Notify me when due" })).toHaveCount(0);
});

test("a reminder card in the conversation panel gives its title the card's width", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const conversationId = await createConversation(page, "Roadmap");
  const title = "Review the product roadmap with the leadership team";
  await createReminder(page, {
    title,
    description: "Two quarters ahead, with the dependencies.",
    dueDate: new Date(Date.now() + 86_400_000).toISOString(),
    conversationId,
  });
  await page.goto(`/conversations/${conversationId}`);
  const row = page.getByTestId("conversation-reminders").getByRole("listitem", { name: title });
  const text = row.getByText(title, { exact: true });
  await expect(text).toBeVisible();
  const [rowBox, textBox] = [await row.boundingBox(), await text.boundingBox()];
  // Before, the edit and complete buttons kept a column beside the text: titles of three lines in half a card.
  expect(textBox!.width / rowBox!.width).toBeGreaterThan(0.75);
  const lineHeight = await text.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
  expect(textBox!.height).toBeLessThanOrEqual(2 * lineHeight + 1);
});
