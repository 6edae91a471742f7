import { expect, type Page } from "@playwright/test";

export const DEMO = { username: "demo", password: "sage-demo" };

/** Logs in through the real login page and waits for the conversation list. */
export async function login(page: Page, credentials = DEMO) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(credentials.username);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/conversations$/);
}
