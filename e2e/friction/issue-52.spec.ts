import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

/**
 * Issue 52 ("What a new user ... tripped over this week"): the items a person sees, as they see them now. Others'
 * browser tests live beside their screens (docs/friction.md maps every item to its tests).
 */

test("item 14: New Conversation puts the cursor in the message box; on a conversation, the first Tab skips to it", async ({ page }) => {
  test.setTimeout(120_000);
  await fakeGemini.reset();
  await signIn(page);
  await page.goto("/conversations");
  await page.getByRole("button", { name: "New Conversation" }).click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  const box = page.getByRole("textbox", { name: "Message" });
  // Before: no focus, and 16 Tab presses to reach the box.
  await expect(box).toBeFocused();
  await fakeGemini.script({ text: "Noted: the board pack goes out on Friday." });
  await page.keyboard.type("The board pack goes out on Friday.");
  await page.keyboard.press("Enter");
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toContainText("Noted: the board pack goes out on Friday.", {
    timeout: 30_000,
  });

  // A conversation with messages keeps the page as it opens; the first Tab offers the way to the box.
  await page.reload();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toBeVisible();
  await expect(box).not.toBeFocused();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to message box" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
});
