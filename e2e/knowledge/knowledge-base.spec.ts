import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { paintedColor } from "../support/contrast.ts";
import { toastWith } from "../support/toasts.ts";

// A web page served by the test itself; the e2e server runs with SAGE_FETCH_ALLOW_PRIVATE=true to reach it.
let site: Server;
let siteOrigin: string;
let latePageReady = false;
const ARTICLE = `<html><head><title>Heron Field Guide</title></head><body><article><h1>Heron Field Guide</h1>${"<p>Grey herons stand motionless in shallow water for long minutes before striking at fish with their dagger bills.</p>".repeat(5)}</article></body></html>`;

test.beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === "/birds/late-page.html") {
      response.writeHead(latePageReady ? 200 : 503, { "content-type": "text/html; charset=utf-8" });
      return response.end(latePageReady ? ARTICLE.replaceAll("Grey herons", "Night herons") : "down");
    }
    response.writeHead(request.url === "/birds/heron-guide.html" ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(request.url === "/birds/heron-guide.html" ? ARTICLE : "missing");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
test.afterAll(() => site.close());

const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 7)}`;
const expectToast = (page: Page, text: string) => expect(toastWith(page, text).first()).toBeVisible();
const itemCard = (page: Page, name: string) => page.getByRole("list", { name: "Knowledge items" }).locator(`[data-item-name="${name}"]`);

async function openSettings(page: Page) {
  await signIn(page);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Knowledge Base" })).toBeVisible();
}

async function createFolderViaApi(page: Page, name: string, parentId = 0): Promise<number> {
  const response = await page.request.post("/api/folders", { data: { name, type: "folder", conversationId: 0, parentId, path: "" } });
  expect(response.status()).toBe(201);
  return (await response.json()).id as number;
}

async function describeAndPlace(page: Page, description: string, folder?: string) {
  const dialog = page.getByRole("dialog");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(dialog.getByRole("heading", { name: "Add a description" })).toBeVisible();
  // Pre-filled with a suggestion from the item itself; still required.
  await expect(dialog.getByLabel("Description")).not.toHaveValue("");
  await dialog.getByLabel("Description").fill("");
  await expect(dialog.getByRole("button", { name: "Next" })).toBeDisabled();
  await dialog.getByLabel("Description").fill(description);
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(dialog.getByRole("heading", { name: "Choose a destination" })).toBeVisible();
  if (folder) {
    await dialog.getByRole("list", { name: "Folders" }).getByRole("button", { name: folder }).click();
    await expect(dialog.getByRole("navigation", { name: "Destination folder" }).getByText(folder)).toBeVisible();
  }
  await dialog.getByRole("button", { name: "Add here" }).click();
  await expect(dialog).toBeHidden();
}

test.describe("Settings > Knowledge Base", () => {
  test("adds a file, a URL and a note through the full dialog flow", async ({ page }) => {
    await openSettings(page);
    const folder = unique("Field notes");
    await createFolderViaApi(page, folder);
    await page.reload();

    // Nothing pending: Next explains what is missing.
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await expectToast(page, "No files, URLs, or notes were added. Please add at least one item.");

    // An unsupported file is dropped with the toast; a valid one goes through description and destination.
    await page.getByLabel("Choose files").setInputFiles({ name: "sheet.numbers", mimeType: "application/octet-stream", buffer: Buffer.from("nope") });
    await expectToast(page, "Unsupported File Type");
    await page
      .getByLabel("Choose files")
      .setInputFiles({ name: "Kingfishers.TXT", mimeType: "text/plain", buffer: Buffer.from("Kingfishers dive from perches into clear streams.") });
    await expect(page.getByRole("list", { name: "Pending items" })).toContainText("Kingfishers.TXT");
    await describeAndPlace(page, "Bird behaviour", folder);
    await expectToast(page, "Kingfishers.TXT was added (1 chunk processed).");
    await page.getByRole("button", { name: `Open folder ${folder}` }).click();
    await expect(itemCard(page, "Kingfishers.TXT")).toBeVisible();
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("button", { name: "Knowledge Base" }).click();

    // A URL: choosing it clears the pending file kinds; the page is fetched and named from host and path.
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Choose files").setInputFiles({ name: "dropped.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
    await page.getByLabel("Add URL").fill(`${siteOrigin}/birds/heron-guide.html`);
    await page.getByRole("button", { name: "Add URL" }).click();
    const pending = page.getByRole("list", { name: "Pending items" });
    await expect(pending).not.toContainText("dropped.txt");
    await expect(pending).toContainText("heron-guide.html");
    await describeAndPlace(page, "Herons");
    await expectToast(page, "127.0.0.1 - heron-guide was added");
    await expect(itemCard(page, "127.0.0.1 - heron-guide")).toBeVisible();

    // A note: the description step previews it; its name comes from the first three words.
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Add Note").fill("Egrets nest in colonies near the estuary every spring.");
    await page.getByRole("button", { name: "Add Note" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByLabel("Note preview")).toHaveText("Egrets nest in colonies near the estuary every spring.");
    await page.getByRole("button", { name: "Back" }).click();
    await describeAndPlace(page, "Nesting");
    await expectToast(page, "Egrets nest in... was added to the knowledge base.");
    await expect(itemCard(page, "Egrets nest in...")).toBeVisible();

    // Closing with a pending item asks before discarding it.
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Add URL").fill("https://example.com/x");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("heading", { name: "Discard changes?" })).toBeVisible();
    await page.getByRole("button", { name: "Discard" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
  });

  test("creates, renames, moves, downloads and deletes items", async ({ page }) => {
    await openSettings(page);
    const alpha = unique("Alpha");
    const beta = unique("Beta");
    for (const name of [alpha, beta]) {
      await page.getByRole("button", { name: "Create Folder" }).click();
      await page.getByPlaceholder("Folder name").fill(name);
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await expect(itemCard(page, name)).toBeVisible();
    }

    const fileName = unique("report") + ".txt";
    const upload = await page.request.post("/api/upload", {
      multipart: {
        conversationId: "0",
        parentId: "0",
        description: "Quarterly",
        file: { name: fileName, mimeType: "text/plain", buffer: Buffer.from("Revenue rose in the third quarter.") },
      },
    });
    expect(upload.status()).toBe(200);
    await page.reload();

    // Rename through the item menu.
    const renamed = unique("renamed") + ".txt";
    await page.getByRole("button", { name: `Actions for ${fileName}` }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await page.getByRole("dialog").getByRole("textbox").fill(renamed);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(itemCard(page, renamed)).toBeVisible();

    // Move it into Alpha with folder browsing and 'Move here'.
    await page.getByRole("button", { name: `Actions for ${renamed}` }).click();
    await page.getByRole("menuitem", { name: "Move to..." }).click();
    await page.getByRole("dialog").getByRole("list", { name: "Folders" }).getByRole("button", { name: alpha }).click();
    await page.getByRole("button", { name: "Move here" }).click();
    await expect(itemCard(page, renamed)).toBeHidden();
    await page.getByRole("button", { name: `Open folder ${alpha}` }).click();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(alpha);
    await expect(itemCard(page, renamed)).toBeVisible();

    // Download sends the original bytes under the file's name; folders have no Download.
    await page.getByRole("button", { name: `Actions for ${renamed}` }).click();
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Download" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(renamed);
    const bytes = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(bytes).toString()).toBe("Revenue rose in the third quarter.");

    // Delete Beta after the confirmation.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("button", { name: "Knowledge Base" }).click();
    await page.getByRole("button", { name: `Actions for ${beta}` }).click();
    await expect(page.getByRole("menuitem", { name: "Download" })).toHaveCount(0);
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await expect(page.getByRole("heading", { name: "Delete Folder" })).toBeVisible();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(itemCard(page, beta)).toBeHidden();
    await page.reload();
    await expect(itemCard(page, alpha)).toBeVisible();
    await expect(itemCard(page, beta)).toBeHidden();

    // Search finds the moved file from the root.
    await page.getByLabel("Search knowledge base").fill(renamed.slice(0, 12).toUpperCase());
    await expect(itemCard(page, renamed)).toBeVisible();
  });

  test("a link that fails is kept as a reference with its reason, and Retry processes it", async ({ page }) => {
    await openSettings(page);
    await page.getByRole("button", { name: "Add Knowledge" }).click();
    await page.getByLabel("Add URL").fill(`${siteOrigin}/birds/late-page.html`);
    await page.getByRole("button", { name: "Add URL" }).click();
    await describeAndPlace(page, "Night herons");
    // One toast says both: 'Error processing URL' is not replaced at once by the fallback's message.
    const toast = toastWith(page, "Error processing URL");
    await expect(toast).toContainText("URL Added as reference without content processing");
    await expect(toast).toContainText("The site answered 503");
    const card = itemCard(page, "127.0.0.1 - late-page");
    await expect(card.getByTestId("item-status")).toHaveText("Failed");
    await expect(card).toContainText("The site answered 503");

    latePageReady = true;
    await card.getByRole("button", { name: "Retry 127.0.0.1 - late-page" }).click();
    await expect(card.getByTestId("item-status")).toHaveCount(0);
    await expect(card).not.toContainText("The site answered 503");
  });

  test("the preview sheet shows a note and edits its description", async ({ page }) => {
    await openSettings(page);
    const content = `Falcons ${Math.random().toString(36).slice(2, 7)} hunt over open moorland at dusk.`;
    const created = await page.request.post("/api/files", {
      data: { name: "", type: "note", conversationId: 0, parentId: 0, path: "", content, description: "Raptors" },
    });
    expect(created.status()).toBe(201);
    const name = (await created.json()).name as string;
    await page.reload();
    await page.getByRole("button", { name: `Preview ${name}` }).click();
    const sheet = page.getByRole("dialog");
    await expect(sheet.getByRole("heading", { name })).toBeVisible();
    await expect(sheet.getByTestId("preview-note-content")).toHaveText(content);
    await expect(sheet.getByTestId("preview-description")).toHaveText("Raptors");
    await sheet.getByRole("button", { name: "Edit Description" }).click();
    await sheet.getByLabel("Description").fill("Birds of prey");
    await sheet.getByRole("button", { name: "Save" }).click();
    await expect(sheet.getByTestId("preview-description")).toHaveText("Birds of prey");
    await page.reload();
    await page.getByRole("button", { name: `Preview ${name}` }).click();
    await expect(page.getByRole("dialog").getByTestId("preview-description")).toHaveText("Birds of prey");
  });

  test("names itself once, says where search results sit, keeps card menus beside names, and marks Reset as destructive", async ({ page }) => {
    await openSettings(page);
    const folderId = await createFolderViaApi(page, unique("Board papers"));
    for (const [conversationId, parentId] of [
      [0, folderId],
      [0, 0],
    ]) {
      const note = await page.request.post("/api/files", {
        data: { name: "Minutes", type: "note", conversationId, parentId, content: "Minutes of the board.", description: "Minutes" },
      });
      expect(note.status()).toBe(201);
    }
    const conversation = await (await page.request.post("/api/conversations", { data: { name: "Q3 board review" } })).json();
    await page.request.post("/api/files", {
      data: { name: "Minutes", type: "note", conversationId: conversation.id, parentId: 0, content: "Minutes of the review.", description: "Minutes" },
    });
    await page.reload();

    // The title is said once: the trail starts at 'Knowledge Base', and that is the heading.
    const section = page.getByRole("region", { name: "Knowledge Base" });
    await expect(section.getByText("Knowledge Base", { exact: true })).toHaveCount(1);

    // A card's menu sits on the row of its name, at the card's right edge.
    const card = itemCard(page, "Minutes");
    const [cardBox, nameBox, menuBox] = [
      await card.boundingBox(),
      await card.getByText("Minutes", { exact: true }).boundingBox(),
      await card.getByRole("button", { name: "Actions for Minutes" }).boundingBox(),
    ];
    expect(menuBox!.y).toBeLessThan(nameBox!.y + nameBox!.height);
    expect(menuBox!.y + menuBox!.height).toBeGreaterThan(nameBox!.y);
    expect(cardBox!.x + cardBox!.width - (menuBox!.x + menuBox!.width)).toBeLessThan(24);

    // Three results named 'Minutes', each saying where it is.
    await page.getByLabel("Search knowledge base").fill("minutes");
    const locations = page.getByRole("list", { name: "Knowledge items" }).getByTestId("item-location");
    await expect(locations).toHaveCount(3);
    expect((await locations.allInnerTexts()).sort()).toEqual([
      "Conversation: Q3 board review",
      "Knowledge Base",
      expect.stringMatching(/^Knowledge Base \/ Board papers /),
    ]);

    // Reset Vector Database is drawn in the destructive colour; Export is not.
    const [reset, exporting] = [
      await paintedColor(page.getByRole("button", { name: "Reset Vector Database" }), "color"),
      await paintedColor(page.getByRole("button", { name: "Export Vector DB" }), "color"),
    ];
    expect(reset[0] - Math.max(reset[1], reset[2])).toBeGreaterThan(80);
    expect(Math.abs(exporting[0] - exporting[1])).toBeLessThan(20);
  });
});
