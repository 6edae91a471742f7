import { expect, type Page } from "@playwright/test";
import { createUser } from "./users.ts";

export const DEMO = { username: "demo", password: "sage-demo" };

/**
 * Logs in through the real login page and waits for the conversation list. Without credentials it
 * creates a fresh account first, so no test sees another test's conversations, files or reminders.
 */
export async function login(page: Page, credentials?: { username: string; password: string }) {
  const account = credentials ?? (await createUser());
  await page.goto("/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  return account;
}
