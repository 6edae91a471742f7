import { expect, test } from "@playwright/test";
import { login } from "../support/auth.ts";
import { toastWith } from "../support/toasts.ts";

test("logout shows the toast, clears the login state and lands on /login", async ({ page }) => {
  await login(page);
  await page.getByRole("button", { name: "Logout" }).click();

  await expect(page).toHaveURL(/\/login$/);
  const toast = toastWith(page, "Logged out");
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("You have been logged out successfully");
  expect(await page.evaluate(() => [localStorage.getItem("isLoggedIn"), localStorage.getItem("userId")])).toEqual([null, null]);
  await expect(page.getByRole("navigation", { name: "Utilities" })).toHaveCount(0);

  // The server session is gone too: a protected page sends us back to /login.
  await page.goto("/conversations");
  await expect(page).toHaveURL(/\/login$/);
  const me = await page.evaluate(() => fetch("/api/auth/me", { credentials: "include" }).then((r) => r.status));
  expect(me).toBe(401);
});
