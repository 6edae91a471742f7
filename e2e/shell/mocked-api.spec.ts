import { expect, test } from "@playwright/test";
import { login, signIn } from "../support/auth.ts";

// page.route cannot see requests that pass through a service worker.
test.use({ serviceWorkers: "block" });

/** A reminder record as GET /api/reminders answers it. */
function reminder(id: number, status: "unread" | "read") {
  return {
    id,
    title: `Reminder ${id}`,
    description: "",
    dueDate: "2030-01-01T09:00:00.000Z",
    priority: "medium",
    type: "reminder",
    status,
    conversationId: null,
    createdAt: "2025-01-01T09:00:00.000Z",
    updatedAt: "2025-01-01T09:00:00.000Z",
  };
}

test.describe("shell behaviour that depends on API answers", () => {
  test("a 401 from any API call clears the login state and goes to /login", async ({ page }) => {
    await page.route("**/api/reminders", (route) =>
      route.fulfill({ status: 401, contentType: "application/json", body: '{"error":"Not logged in","code":"unauthorized"}' }),
    );
    await page.goto("/login");
    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("sage-demo");
    // The utility bar's reminders read answers 401 right after login. The page starts at /login, so the test waits
    // for that answer before looking: otherwise it could see the login page from before the login.
    const unauthorized = page.waitForResponse((response) => response.url().endsWith("/api/reminders") && response.status() === 401);
    await page.getByRole("button", { name: "Login" }).click();
    await unauthorized;
    await expect.poll(() => page.evaluate(() => localStorage.getItem("isLoggedIn"))).toBeNull();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  });

  test("the reminders button shows a dot when a reminder is unread, and says so to a screen reader", async ({ page }) => {
    let reminders = [reminder(1, "read")];
    await page.route("**/api/reminders", (route) => route.fulfill({ json: reminders }));
    await login(page);
    const button = page.getByRole("button", { name: "Reminders" });
    await expect(button).toBeVisible();
    await expect(button).toHaveAccessibleName("Reminders");
    await expect(page.getByTestId("reminders-unread-badge")).toHaveCount(0);

    reminders = [...reminders, reminder(2, "unread"), reminder(3, "unread")];
    await page.reload();
    await expect(button.getByTestId("reminders-unread-badge")).toBeVisible();
    // The dot itself is hidden from assistive technology; the button's name carries the news.
    await expect(button).toHaveAccessibleName("Reminders (2 unread)");
  });

  test("the reminders button opens the Reminders sheet", async ({ page }) => {
    await page.route("**/api/reminders", (route) => route.fulfill({ json: [] }));
    await login(page);
    await page.getByRole("button", { name: "Reminders" }).click();
    const sheet = page.getByRole("dialog", { name: "Reminders" });
    await expect(sheet).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(sheet).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reminders" })).toBeFocused();
  });

  test("with no model configured the chat shows the notice, saves nothing and gives the words back", async ({ page }) => {
    const notice = "No language model is configured. Set GEMINI_API_KEY, then restart SAGE.";
    await page.route("**/api/conversations/*/turn", (route) =>
      route.fulfill({
        contentType: "text/event-stream",
        body: `event: notice\ndata: ${JSON.stringify({ text: notice })}\n\nevent: done\ndata: {"messages":[]}\n\n`,
      }),
    );
    await signIn(page);
    const conversation = await (await page.request.post("/api/conversations", { data: { name: "No model" } })).json();
    await page.goto(`/conversations/${conversation.id}`);
    const input = page.getByRole("textbox", { name: "Message" });
    await input.fill("Hello, anyone there?");
    await input.press("Enter");
    const shown = page.getByTestId("chat-notice");
    await expect(shown).toContainText("SAGE cannot answer yet: no AI model is connected.");
    await expect(shown.getByText(notice)).toBeHidden();
    await shown.getByText("Details").click();
    await expect(shown.getByText(notice)).toBeVisible();
    await expect(input).toHaveValue("Hello, anyone there?");
    await expect(page.locator('[data-testid="chat-message"]')).toHaveCount(0);
    expect(await (await page.request.get(`/api/conversations/${conversation.id}/messages`)).json()).toEqual([]);
  });
});
