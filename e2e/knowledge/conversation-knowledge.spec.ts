import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";

test("a conversation's knowledge panel adds a note, lists it and removes it after confirmation", async ({ page }) => {
  await signIn(page);
  const created = await page.request.post("/api/conversations", { data: { name: "Knowledge panel check" } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/conversations/${id}`);

  const panel = page.getByRole("region", { name: "Conversation Knowledge" });
  await expect(panel.getByText("No files yet")).toBeVisible();
  await expect(panel.getByRole("link", { name: "System Knowledge Base" })).toHaveAttribute("href", "/settings");

  await panel.getByRole("button", { name: "Add Knowledge" }).click();
  await page.getByLabel("Add Note").fill("Board meeting moved to Thursday afternoon.");
  await page.getByRole("button", { name: "Add Note" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("dialog").getByLabel("Description").fill("Schedule change");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Add here" }).click();
  const file = panel.getByTestId("conversation-file").filter({ hasText: "Board meeting moved..." });
  await expect(file).toBeVisible();

  await panel.getByRole("button", { name: "Remove Board meeting moved..." }).click();
  await expect(page.getByRole("heading", { name: "Remove Knowledge File" })).toBeVisible();
  await page.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(file).toBeHidden();
  await expect(panel.getByText("No files yet")).toBeVisible();
});
