import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// Issue 32: a picture pasted into the composer goes with the message, to the model as a picture, and stays shown.
test.describe.configure({ mode: "serial" });

// A 1x1 PNG: what a pasted screenshot is, as far as the clipboard is concerned.
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

test.beforeEach(async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
});

test("a pasted picture goes with the message to the model, and shows in the chat after a reload", async ({ page }) => {
  const conversationId = (await (await page.request.post("/api/conversations", { data: { name: "Whiteboard" } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  const input = page.getByRole("textbox", { name: "Message" });
  await input.click();
  await page.evaluate((base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "whiteboard.png", { type: "image/png" }));
    document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, PNG_BASE64);

  const composer = page.locator("form").getByRole("list", { name: "Attached files" });
  await expect(composer.getByRole("status")).toContainText("Attaching whiteboard.png...");
  // The picture is read (text recognition) before the upload answers: seconds on a loaded machine.
  await expect(composer.getByRole("img", { name: "whiteboard.png" })).toBeVisible({ timeout: 30_000 });
  await fakeGemini.script({ text: "The whiteboard shows the launch plan." });
  await input.fill("What does the whiteboard say?");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(/The whiteboard shows the launch plan\./);
  await expect(composer).toHaveCount(0);

  const sent = page.locator('[data-testid="chat-message"][data-role="user"]').last();
  await expect(sent.getByRole("img", { name: "whiteboard.png" })).toBeVisible();
  const chat = (await fakeGemini.requests()).filter((request) => request.action === "streamGenerateContent").at(-1)!;
  expect(JSON.stringify(chat.body.contents)).toContain(`"inlineData":{"mimeType":"image/png","data":"${PNG_BASE64}"}`);

  await page.reload();
  const again = page.locator('[data-testid="chat-message"][data-role="user"]').last();
  await expect(again).toContainText("What does the whiteboard say?");
  await expect(again.getByRole("img", { name: "whiteboard.png" })).toBeVisible();
  // The picture is one of the conversation's files.
  await expect(page.getByTestId("conversation-file-name").filter({ hasText: "whiteboard.png" }).first()).toBeAttached();
});
