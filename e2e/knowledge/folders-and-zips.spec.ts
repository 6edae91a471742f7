import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makeZip } from "../../apps/server/src/test/make-zip.ts";
import { signIn } from "../support/auth.ts";
import { toastWith } from "../support/toasts.ts";

const itemCard = (page: Page, name: string) => page.getByRole("list", { name: "Knowledge items" }).locator(`[data-item-name="${name}"]`);
const expectToast = (page: Page, text: string) => expect(toastWith(page, text).first()).toBeVisible();

async function describeAndAdd(page: Page, description: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByLabel("Description").fill(description);
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Add here" }).click();
  // Every file is uploaded (and a small one read) before the dialog closes: allow for a loaded machine.
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

async function openSettings(page: Page) {
  await signIn(page);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Knowledge Base" })).toBeVisible();
}

test.describe("Add Knowledge: folders and zips", () => {
  let root: string;
  test.beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "sage-e2e-folder-"));
    mkdirSync(path.join(root, "Board", "2024"), { recursive: true });
    writeFileSync(path.join(root, "Board", "minutes.txt"), "Minutes: the board approved the Osprey plan.");
    writeFileSync(path.join(root, "Board", "2024", "q1.md"), "# Q1\nRevenue grew by nine percent.");
    writeFileSync(path.join(root, "Board", "2024", "tool.exe"), "MZ");
    writeFileSync(path.join(root, "Board", ".DS_Store"), "junk");
  });
  test.afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("a picked folder keeps its structure as knowledge-base folders", async ({ page }) => {
    await openSettings(page);
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Choose a folder").setInputFiles(path.join(root, "Board"));
    // The .exe is not a supported type (the toast says so); the hidden .DS_Store is left out silently.
    await expectToast(page, "Unsupported File Type");
    await expect(page.getByRole("list", { name: "Pending items" })).toContainText("Board (2 files)");
    await describeAndAdd(page, "Board papers");
    await expectToast(page, "Board: 2 files added.");

    await page.getByRole("button", { name: "Open folder Board" }).click();
    await expect(itemCard(page, "minutes.txt")).toBeVisible();
    await page.getByRole("button", { name: "Open folder 2024" }).click();
    await expect(itemCard(page, "q1.md")).toBeVisible();
    await expect(itemCard(page, "tool.exe")).toHaveCount(0);
  });

  test("a zip becomes a folder with its entries inside", async ({ page }) => {
    await openSettings(page);
    const zip = await makeZip([
      ["Plans/osprey.txt", "The Osprey plan starts in March."],
      ["readme.md", "# Readme\nHow the Falcon files are organised."],
    ]);
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Choose files").setInputFiles({ name: "Strategy.zip", mimeType: "application/zip", buffer: zip });
    await expect(page.getByRole("list", { name: "Pending items" })).toContainText("Strategy.zip");
    await describeAndAdd(page, "Strategy archive");
    await expectToast(page, "Strategy.zip became the folder Strategy: 2 files added.");

    await page.getByRole("button", { name: "Open folder Strategy" }).click();
    await expect(itemCard(page, "readme.md")).toBeVisible();
    await page.getByRole("button", { name: "Open folder Plans" }).click();
    await expect(itemCard(page, "osprey.txt")).toBeVisible();
  });
});
