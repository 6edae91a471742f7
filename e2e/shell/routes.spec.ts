import { expect, test } from "@playwright/test";
import { login } from "../support/auth.ts";

const PROTECTED = ["/", "/conversations", "/conversations/1", "/settings", "/test-gemini", "/web-search-test", "/no-such-page"];

test.describe("routes when logged out", () => {
  for (const path of PROTECTED) {
    test(`${path} goes to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    });
  }
});

test.describe("routes when logged in", () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
  });

  test("/ and /login redirect to /conversations", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/conversations$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/conversations$/);
  });

  test("an unknown path shows the not-found card", async ({ page }) => {
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Utilities" })).toBeVisible();
  });

  test("each page has its title", async ({ page }) => {
    const titles: Array<[string, string]> = [
      ["/conversations", "My Conversations"],
      ["/settings", "Settings"],
      ["/test-gemini", "Vector-Augmented Model Test"],
      ["/web-search-test", "Web Search Test"],
    ];
    for (const [path, title] of titles) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    }
  });

  test("each browser tab is titled after its page", async ({ page }) => {
    const name = `Board prep ${Date.now()}`;
    const { id } = (await (await page.request.post("/api/conversations", { data: { name } })).json()) as { id: number };
    const titles: Array<[string, string]> = [
      ["/conversations", "My Conversations - SAGE"],
      [`/conversations/${id}`, `${name} - SAGE`],
      ["/conversations/99999999", "Conversation not found - SAGE"],
      ["/settings", "Knowledge Base - Settings - SAGE"],
      ["/settings?section=user-preferences", "User Preferences - Settings - SAGE"],
      ["/test-gemini", "Vector-Augmented Model Test - SAGE"],
      ["/web-search-test", "Web Search Test - SAGE"],
      ["/no-such-page", "Page not found - SAGE"],
    ];
    for (const [path, title] of titles) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    // A rename shows in the tab at once.
    await page.goto(`/conversations/${id}`);
    await page.getByRole("button", { name: "Edit name" }).click();
    await page.getByRole("textbox", { name: "Conversation name" }).fill("Hiring plan");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveTitle("Hiring plan - SAGE");
    await page.request.delete(`/api/conversations/${id}`);
  });

  test("the utility bar highlights the icon of the active route", async ({ page }) => {
    const links: Array<[string, string]> = [
      ["Conversations", "/conversations"],
      ["Test vector model", "/test-gemini"],
      ["Test web search", "/web-search-test"],
      ["Settings", "/settings"],
    ];
    const bar = page.getByRole("navigation", { name: "Utilities" });
    for (const [name, path] of links) {
      await bar.getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(bar.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
      await expect(bar.locator('[aria-current="page"]')).toHaveCount(1);
    }
    await page.goto("/conversations/42");
    await expect(bar.getByRole("link", { name: "Conversations" })).toHaveAttribute("aria-current", "page");
    await page.goto("/no-such-page");
    await expect(bar.locator('[aria-current="page"]')).toHaveCount(0);
  });

  test("utility buttons have tooltips", async ({ page }) => {
    const bar = page.getByRole("navigation", { name: "Utilities" });
    for (const name of ["Conversations", "Reminders", "Test vector model", "Test web search", "Settings", "Logout"]) {
      // Start each hover from outside the bar, as a person moving between icons would.
      // (Radix keeps a tooltip open while the pointer may be heading for it: move twice.)
      await page.mouse.move(10, 400, { steps: 4 });
      await page.mouse.move(20, 420, { steps: 2 });
      await expect(page.getByRole("tooltip")).toHaveCount(0);
      await bar.getByRole(name === "Reminders" || name === "Logout" ? "button" : "link", { name }).hover();
      await expect(page.getByRole("tooltip", { name })).toBeVisible();
    }
  });

  test("the back button of a conversation goes to the list", async ({ page }) => {
    await page.goto("/conversations/7");
    await page.getByRole("link", { name: "Back to conversations" }).click();
    await expect(page).toHaveURL(/\/conversations$/);
  });
});
