import { expect, type Page } from "@playwright/test";

/** The conversation's message box. */
export const messageInput = (page: Page) => page.getByRole("textbox", { name: "Message" });

/** Types a message and sends it with Enter, as a user does. */
export async function send(page: Page, text: string) {
  await messageInput(page).fill(text);
  await messageInput(page).press("Enter");
}

/** Waits until the turn is over: the Send button is back and nothing is streaming. */
export async function turnDone(page: Page) {
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.locator('[data-streaming="true"]')).toHaveCount(0);
}
