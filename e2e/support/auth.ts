import { expect, type Page } from "@playwright/test";
import { createUser } from "./users.ts";

export const DEMO = { username: "demo", password: "sage-demo" };

type Credentials = { username: string; password: string };

/**
 * Logs in through the real login page and waits for the conversation list. Without credentials it
 * creates a fresh account first, so no test sees another test's conversations, files or reminders.
 * Only tests about logging in need this; the others use `signIn`, which skips the page.
 */
export async function loginThroughPage(page: Page, credentials?: Credentials) {
  const account = credentials ?? (await createUser());
  await page.goto("/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  return account;
}

/**
 * A session as the login page leaves it (the server's cookie, the app's stored login state) without loading the
 * login page: the next `goto` opens the app logged in. About two seconds less per test on a loaded machine.
 */
export async function signIn(page: Page, credentials?: Credentials) {
  const account = credentials ?? (await createUser());
  const answer = await page.request.post("/api/auth/login", { data: { username: account.username, password: account.password } });
  expect(answer.ok(), await answer.text()).toBe(true);
  const { user } = (await answer.json()) as { user: { id: number } };
  // Once per tab and user, so a test that logs out and reloads is not logged in again by this script.
  await page.addInitScript((id: number) => {
    const seeded = `e2e-signed-in-${id}`;
    if (sessionStorage.getItem(seeded)) return;
    sessionStorage.setItem(seeded, "1");
    localStorage.setItem("isLoggedIn", "true");
    localStorage.setItem("userId", String(id));
  }, user.id);
  return account;
}

/** Signed in (a fresh account unless credentials are given) and on the conversation list. */
export async function login(page: Page, credentials?: Credentials) {
  const account = await signIn(page, credentials);
  await page.goto("/conversations");
  await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
  return account;
}
