import { expect, test } from "@playwright/test";
import { DEMO, login, loginThroughPage } from "../support/auth.ts";

test.describe("login page", () => {
  test("shows the fields, the button and the demonstration note", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await expect(page.getByText(/temporary demonstration/i)).toBeVisible();
    // Logged out: no utility bar.
    await expect(page.getByRole("navigation", { name: "Utilities" })).toHaveCount(0);
  });

  test("requires a username and a password", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();

    await page.getByLabel("Username").fill("demo");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Username is required")).toHaveCount(0);
    await expect(page.getByText("Password is required")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password is refused by the server", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Username").fill(DEMO.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Login failed: Invalid username or password" })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("isLoggedIn"))).toBeNull();
  });

  test("a successful login lands on the conversations page and survives a reload", async ({ page }) => {
    await loginThroughPage(page);
    await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
    await expect(page.getByText("Your Personal AI Assistant")).toBeVisible();
    await expect(page.getByText("Start a new conversation or continue an existing one.")).toBeVisible();
    const stored = await page.evaluate(() => ({
      isLoggedIn: localStorage.getItem("isLoggedIn"),
      userId: localStorage.getItem("userId"),
    }));
    expect(stored.isLoggedIn).toBe("true");
    expect(stored.userId).toMatch(/^\d+$/);

    await page.reload();
    await expect(page).toHaveURL(/\/conversations$/);
    await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Utilities" })).toBeVisible();
  });

  test("the server decides: a session the server no longer knows goes back to /login", async ({ page, context }) => {
    await login(page);
    await context.clearCookies();
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("isLoggedIn"))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem("userId"))).toBeNull();
  });
});
