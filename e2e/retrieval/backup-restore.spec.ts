import { expect, test, type APIRequestContext } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { toastWith } from "../support/toasts.ts";

async function addNote(request: APIRequestContext, content: string) {
  const created = await request.post("/api/files", { data: { type: "note", content, conversationId: 0, parentId: 0, description: "e2e note" } });
  expect(created.ok()).toBe(true);
}

test("Import Vector DB says what it replaces and asks first; a snapshot taken before it restores the note added since the export", async ({ page }) => {
  await signIn(page);
  await addNote(page.request, "Quince orchard plans for the spring planting.");
  const exported = await page.request.get("/api/export_vector_db");
  expect(exported.ok()).toBe(true);
  const backup = { name: "vector_db_backup.zip", mimeType: "application/zip", buffer: await exported.body() };
  await addNote(page.request, "Medlar harvest notes added after the export.");

  await page.goto("/settings");
  const items = page.getByRole("list", { name: "Knowledge items" });
  await expect(items.getByRole("button", { name: /^Preview Medlar harvest notes/ })).toBeVisible();

  // Cancel first: nothing is replaced.
  await page.getByLabel("Vector database backup file").setInputFiles(backup);
  const confirm = page.getByRole("dialog", { name: "Import Vector DB" });
  await expect(confirm).toContainText("This replaces 0 files, 2 notes and 0 folders with the contents of vector_db_backup.zip");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(items.getByRole("button", { name: /^Preview Medlar harvest notes/ })).toBeVisible();

  await page.getByLabel("Vector database backup file").setInputFiles(backup);
  await confirm.getByRole("button", { name: "Replace and import" }).click();
  await expect(toastWith(page, "Imported 1 file from the backup.")).toBeVisible();
  await expect(items.getByRole("button", { name: /^Preview Medlar harvest notes/ })).toBeHidden();
  await expect(items.getByRole("button", { name: /^Preview Quince orchard plans/ })).toBeVisible();

  await page.getByRole("button", { name: "Snapshots" }).click();
  const snapshots = page.getByRole("dialog", { name: "Snapshots" });
  const entry = snapshots.getByRole("listitem").filter({ hasText: "Before an import" });
  await expect(entry).toContainText("0 files, 2 notes, 0 folders");
  await entry.getByRole("button", { name: /^Restore the snapshot of / }).click();
  await expect(snapshots).toContainText("This replaces 0 files, 1 note and 0 folders with it.");
  await snapshots.getByRole("button", { name: "Restore", exact: true }).click();
  await expect(toastWith(page, "Restored 2 files from the snapshot")).toBeVisible();
  await expect(items.getByRole("button", { name: /^Preview Medlar harvest notes/ })).toBeVisible();
  await expect(items.getByRole("button", { name: /^Preview Quince orchard plans/ })).toBeVisible();
});
