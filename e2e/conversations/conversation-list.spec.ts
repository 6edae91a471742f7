import { expect, test, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { toastWith } from "../support/toasts.ts";

const items = (page: Page) => page.getByTestId("conversation-item");
const names = (page: Page) => page.getByTestId("conversation-name");

async function createConversation(page: Page, name: string): Promise<number> {
  const response = await page.request.post("/api/conversations", { data: { name } });
  expect(response.ok()).toBe(true);
  return (await response.json()).id;
}

test.beforeEach(async ({ page }) => {
  await login(page);
});

test("New Conversation creates 'New Conversation' and opens it", async ({ page }) => {
  await page.getByRole("button", { name: "New Conversation" }).click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  await expect(toastWith(page, "New conversation created")).toBeVisible();
  await expect(page.getByTestId("conversation-title")).toHaveText("New Conversation");
  await page.getByRole("link", { name: "Back to conversations" }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
});

test("search, both sorts, both views, rename, and the empty states", async ({ page }) => {
  const prefix = `List${Date.now()}`;
  await createConversation(page, `${prefix} banana`);
  await createConversation(page, `${prefix} apple`);
  await createConversation(page, `${prefix} Cherry`);
  const untitled = await createConversation(page, "");
  await page.reload();

  const search = page.getByPlaceholder("Search conversations...");
  await search.fill(prefix.toUpperCase());
  await expect(items(page)).toHaveCount(3);
  // Most Recent is the default: newest first.
  await expect(page.getByLabel("Sort conversations")).toHaveValue("recent");
  await expect(names(page)).toHaveText([`${prefix} Cherry`, `${prefix} apple`, `${prefix} banana`]);
  await page.getByLabel("Sort conversations").selectOption({ label: "A-Z" });
  await expect(names(page)).toHaveText([`${prefix} apple`, `${prefix} banana`, `${prefix} Cherry`]);

  // Dates as 'MMM d, yyyy'.
  await expect(page.getByTestId("conversation-date").first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);

  // Grid by default with 200px cards; list view on demand.
  await expect(page.getByRole("list", { name: "Conversations" })).toHaveAttribute("data-view", "grid");
  expect((await items(page).first().boundingBox())!.height).toBe(200);
  await page.getByRole("button", { name: "List view" }).click();
  await expect(page.getByRole("list", { name: "Conversations" })).toHaveAttribute("data-view", "list");
  expect((await items(page).first().boundingBox())!.height).toBeLessThan(200);
  await page.getByRole("button", { name: "Grid view" }).click();
  await expect(page.getByRole("list", { name: "Conversations" })).toHaveAttribute("data-view", "grid");

  await search.fill(`${prefix} nothing-matches`);
  await expect(page.getByText("No conversations found matching your search")).toBeVisible();

  // Rename through the item menu.
  await search.fill(`${prefix} banana`);
  await page.getByRole("button", { name: `Actions for ${prefix} banana` }).click();
  await page.getByRole("menuitem", { name: "Edit Name" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Conversation Name" });
  await expect(dialog.getByPlaceholder("Enter conversation name")).toHaveValue(`${prefix} banana`);
  await dialog.getByPlaceholder("Enter conversation name").fill(`${prefix} renamed`);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(toastWith(page, "Conversation name updated")).toBeVisible();
  await expect(dialog).toBeHidden();
  await search.fill(`${prefix} renamed`);
  await expect(names(page)).toHaveText([`${prefix} renamed`]);

  // An empty name shows as Untitled, and sorts as Untitled.
  await search.fill("");
  await expect(
    page
      .getByRole("link")
      .filter({ has: page.getByText("Untitled", { exact: true }) })
      .first(),
  ).toBeVisible();
  await page.request.delete(`/api/conversations/${untitled}`);
});

test("delete asks first, then removes the conversation with its messages and reminders", async ({ page }) => {
  const name = `Doomed${Date.now()}`;
  const survivor = await createConversation(page, `Survivor${Date.now()}`);
  const id = await createConversation(page, name);
  await page.request.post(`/api/conversations/${id}/messages`, { data: { role: "user", content: "hello" } });
  const reminder = await page.request.post("/api/reminders", { data: { title: `R ${name}`, dueDate: "2031-01-01", conversationId: id } });
  expect(reminder.status()).toBe(201);
  await page.reload();
  await page.getByPlaceholder("Search conversations...").fill(name);

  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Conversation" });
  await expect(dialog.getByText("Are you sure you want to delete this conversation? You can restore it from Recently deleted for 30 days.")).toBeVisible();
  await expect(dialog.getByText("1 reminder is deleted with it.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(items(page)).toHaveCount(1);

  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete Conversation" }).getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Conversation and all related data deleted successfully")).toBeVisible();
  await expect(page.getByText("No conversations found matching your search")).toBeVisible();

  expect((await page.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/conversations/${id}/messages`)).status()).toBe(404);
  const reminders: { title: string }[] = await (await page.request.get("/api/reminders")).json();
  expect(reminders.map((item) => item.title)).not.toContain(`R ${name}`);
  expect((await page.request.get(`/api/conversations/${survivor}`)).status()).toBe(200);

  // Nothing is lost: Recently deleted restores it with its messages and reminder.
  await page.getByRole("button", { name: "Recently deleted" }).click();
  const deleted = page.getByRole("dialog", { name: "Recently deleted" });
  await expect(deleted.getByTestId("deleted-conversation").filter({ hasText: name })).toContainText("1 reminder, 0 files");
  await deleted.getByRole("button", { name: `Restore ${name}` }).click();
  await expect(deleted.getByTestId("deleted-conversation").filter({ hasText: name })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(items(page)).toHaveCount(1);
  expect((await (await page.request.get(`/api/conversations/${id}/messages`)).json()).map((m: { content: string }) => m.content)).toEqual(["hello"]);
  const back: { title: string }[] = await (await page.request.get("/api/reminders")).json();
  expect(back.map((item) => item.title)).toContain(`R ${name}`);
});

test("an unknown conversation shows the not-found view", async ({ page }) => {
  await page.goto("/conversations/99999999");
  await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
});

test("empty list, load failure and failed create show their texts", async ({ page }) => {
  await page.route("**/api/conversations", (route) =>
    route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.fulfill({ status: 500, body: "broken" }),
  );
  await page.reload();
  await expect(page.getByText("No conversations yet. Start a new one!")).toBeVisible();
  await page.getByRole("button", { name: "New Conversation" }).click();
  await expect(toastWith(page, "Failed to create conversation")).toBeVisible();
  await expect(page).toHaveURL(/\/conversations$/);

  let gets = 0;
  await page.unrouteAll();
  await page.route("**/api/conversations", (route) => {
    gets += 1;
    return route.fulfill({ status: 500, body: "broken" });
  });
  await page.reload();
  await expect(page.getByText("Failed to fetch conversations")).toBeVisible();
  // One retry: the list is asked for twice.
  expect(gets).toBe(2);
});

test("the detail header renames the conversation; a failed save says 'Failed to update name'", async ({ page }) => {
  const name = `Detail${Date.now()}`;
  const id = await createConversation(page, name);
  await page.goto(`/conversations/${id}`);
  await expect(page.getByTestId("conversation-title")).toHaveText(name);
  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByRole("textbox", { name: "Conversation name" }).fill(`${name} renamed`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("conversation-title")).toHaveText(`${name} renamed`);
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).name).toBe(`${name} renamed`);

  await page.route(`**/api/conversations/${id}`, (route) =>
    route.request().method() === "PATCH" ? route.fulfill({ status: 500, body: "no" }) : route.fallback(),
  );
  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByRole("textbox", { name: "Conversation name" }).fill("Never saved");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toastWith(page, "Failed to update name")).toBeVisible();
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).name).toBe(`${name} renamed`);
});

test("on a phone the chat keeps the screen; Files and Reminders open as full panels over it", async ({ page }) => {
  const name = `Q3 board review ${Date.now()}`;
  const id = await createConversation(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/conversations/${id}`);
  const message = page.getByRole("textbox", { name: "Message" });
  await expect(message).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeInViewport({ ratio: 1 });
  // The title is cut with an ellipsis at most, and then names itself in full.
  await expect(page.getByTestId("conversation-title")).toHaveAttribute("title", name);
  // Nothing of the side panels sits in the page, above or below the message box.
  await expect(page.getByRole("heading", { name: "Reminders", exact: true })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Relevant Files" })).toHaveCount(0);

  await page.getByRole("button", { name: "Open Files panel" }).click();
  const files = page.getByRole("dialog", { name: "Files" });
  await expect(files.getByRole("heading", { name: "Conversation Knowledge" })).toBeVisible();
  await expect(files.getByRole("button", { name: "Add Knowledge" })).toBeInViewport({ ratio: 1 });
  await expect(files.getByRole("heading", { name: "Relevant Files" })).toBeVisible();
  // The panel slides in: its width settles on the screen's, give or take a rendering fraction.
  await expect.poll(async () => Math.round((await files.boundingBox())?.width ?? 0)).toBe(390);
  await page.keyboard.press("Escape");
  await expect(files).toHaveCount(0);

  await page.getByRole("button", { name: "Open Reminders panel" }).click();
  const reminders = page.getByRole("dialog", { name: "Reminders" });
  await expect(reminders.getByRole("heading", { name: "Reminders", exact: true })).toBeVisible();
  await expect(reminders.getByRole("button", { name: "Add Reminder" })).toBeInViewport({ ratio: 1 });
  await page.keyboard.press("Escape");
  await expect(reminders).toHaveCount(0);
  await expect(message).toBeInViewport({ ratio: 1 });
});

test.describe("while the list loads", () => {
  // page.route cannot see requests that pass through a service worker.
  test.use({ serviceWorkers: "block" });

  test("every stage says 'Loading conversations...': no bare 'Loading...' flashes first", async ({ page }) => {
    await page.addInitScript(() => {
      const seen = new Set<string>();
      (window as unknown as { loadingTexts: Set<string> }).loadingTexts = seen;
      const record = () => {
        for (const line of (document.body?.innerText ?? "").split("\n")) if (/loading/i.test(line)) seen.add(line.trim());
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
    });
    // Each stage takes long enough to be seen: the session check, the page's code, then its data.
    const slow = (pattern: string) =>
      page.route(pattern, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.fallback();
      });
    await slow("**/api/auth/me");
    await slow("**/assets/*.js");
    await slow("**/api/conversations");
    await slow("**/api/reminders");
    await page.reload();
    await expect(page.getByText("No conversations yet. Start a new one!")).toBeVisible();
    const seen = await page.evaluate(() => [...(window as unknown as { loadingTexts: Set<string> }).loadingTexts]);
    expect(seen).toContain("Loading conversations...");
    expect(seen).not.toContain("Loading...");
  });
});

test("failed rename and delete from the list show their error toasts and change nothing", async ({ page }) => {
  const name = `Sturdy${Date.now()}`;
  const id = await createConversation(page, name);
  await page.route(`**/api/conversations/${id}`, (route) =>
    ["PATCH", "DELETE"].includes(route.request().method()) ? route.fulfill({ status: 500, body: "no" }) : route.fallback(),
  );
  await page.reload();
  await page.getByPlaceholder("Search conversations...").fill(name);
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Edit Name" }).click();
  await page.getByPlaceholder("Enter conversation name").fill("changed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toastWith(page, "Failed to update conversation name")).toBeVisible();
  const editDialog = page.getByRole("dialog", { name: "Edit Conversation Name" });
  await editDialog.getByRole("button", { name: "Close" }).click();
  await expect(editDialog).toBeHidden();
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete Conversation" }).getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Failed to delete conversation")).toBeVisible();
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).name).toBe(name);
});

test("the search box finds words inside messages, accents or not, and a hit opens the conversation at that message", async ({ page }) => {
  const name = `Offsite ${Date.now()}`;
  const id = await createConversation(page, name);
  await fakeGemini.reset();
  await fakeGemini.script({ text: "The offsite is booked at the Café Müller in Zürich for the second week of March." });
  const turn = await page.request.post(`/api/conversations/${id}/turn`, { data: { content: "Where is the offsite?" } });
  expect(turn.ok()).toBe(true);

  await page.goto("/conversations");
  // Typed without accents and in another case: the message is still found.
  await page.getByPlaceholder("Search conversations...").fill("cafe MULLER zurich");
  const hits = page.getByRole("list", { name: "Messages found" });
  const hit = hits.getByRole("link").filter({ hasText: name });
  await expect(hit).toContainText("Café Müller in Zürich");
  await expect(hit).toContainText("SAGE");
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${id}\\?message=\\d+$`));
  const marked = page.locator('[data-testid="chat-message"][aria-current="true"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText("Café Müller in Zürich");
  await expect(marked).toBeInViewport();
});
