import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { toastWith } from "../support/toasts.ts";

const MEMO = "Q3 memo. Revenue grew eleven percent against plan.";

test("a file shared by link from the Knowledge Base opens for anyone until the user stops sharing it", async ({ page, playwright, baseURL }) => {
  await signIn(page);
  const upload = await page.request.post("/api/upload", {
    multipart: { parentId: "0", description: "", file: { name: "q3-memo.txt", mimeType: "text/plain", buffer: Buffer.from(MEMO) } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await page.goto("/settings");
  const card = page.getByRole("list", { name: "Knowledge items" }).locator('[data-item-name="q3-memo.txt"]');
  await expect(card).toBeVisible();

  // Share from the item's menu; the link is known now, and only now.
  const made = page.waitForResponse((response) => response.url().endsWith("/share") && response.request().method() === "POST");
  await card.getByRole("button", { name: "Actions for q3-memo.txt" }).click();
  await page.getByRole("menuitem", { name: "Share by link" }).click();
  const { url } = (await (await made).json()) as { url: string };
  await expect(card.getByText(/^Shared by link until \w{3} \d{1,2} \w{3}$/)).toBeVisible();
  await expect(card.getByRole("button", { name: "Copy link to q3-memo.txt" })).toBeVisible();

  // Anyone: a client with no session at all.
  const anyone = await playwright.request.newContext({ baseURL });
  const opened = await anyone.get(new URL(url).pathname);
  expect(opened.status()).toBe(200);
  expect(await opened.text()).toBe(MEMO);

  // Stop sharing from the keyboard.
  await card.getByRole("button", { name: "Stop sharing q3-memo.txt" }).focus();
  await page.keyboard.press("Enter");
  await expect(toastWith(page, "The link to q3-memo.txt no longer opens it.").first()).toBeVisible();
  await expect(card.getByText(/Shared by link/)).toBeHidden();

  const after = await anyone.get(new URL(url).pathname);
  expect(after.status()).toBe(404);
  expect(await after.text()).not.toContain(MEMO);
  await anyone.dispose();
});
