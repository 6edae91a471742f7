import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { messageInput, send, turnDone } from "../support/chat.ts";

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

test("item 13: a failed model answer shows as an error with its reason in words, and Retry answers the same message", async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  const conversation = await (await page.request.post("/api/conversations", { data: { name: "Board pack" } })).json();
  await page.goto(`/conversations/${conversation.id}`);
  await fakeGemini.script({ error: { status: 429, message: "Resource has been exhausted (e.g. check quota)." } });
  await send(page, "Summarise the board pack");
  await turnDone(page);
  const answer = page.locator('[data-testid="chat-message"][data-role="ai"]').last();
  // Before: "Sorry, the model failed to answer this time. ..." in an answer's bubble, no reason, no Retry.
  await expect(answer).toHaveAttribute("data-failed", "true");
  await expect(answer).toContainText("No answer: the model failed");
  await expect(answer).toContainText(
    "Sorry, the model failed to answer this time: the model service's quota is used up or it is too busy. Nothing you typed was lost: your message is saved above, so you can try again.",
  );
  // Still an error after a reload, with Retry.
  await page.reload();
  const retry = answer.getByRole("button", { name: "Retry" });
  await expect(retry).toBeVisible();
  await fakeGemini.script({ text: "The board pack asks for a decision on the new wing." });
  await retry.click();
  await turnDone(page);
  const answers = page.locator('[data-testid="chat-message"][data-role="ai"]');
  await expect(answers.last()).toContainText("The board pack asks for a decision on the new wing.");
  await expect(answers.last()).not.toHaveAttribute("data-failed", "true");
  // One question, one answer shown: Retry answered the same message rather than sending it again.
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(messageInput(page)).toBeVisible();
});
