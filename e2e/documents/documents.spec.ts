import { readFile } from "node:fs/promises";
import { inflateRawSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// The fake Gemini's reply queue is shared: these tests run one after another.
test.describe.configure({ mode: "serial" });

/** A zip's entries by name, inflated (read through the central directory, as an office program does). */
function zipEntries(zip: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let count = zip.readUInt16LE(end + 10); count > 0; count--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.set(name, (method === 8 ? inflateRawSync(data) : data).toString("utf8"));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

const OUTLINE = `Make a deck from this outline:
1. Where we are: revenue up 12%
2. What we will do: hire two engineers
3. What we need: the board's approval`;

const DECK = [
  "# Board update",
  "## Where we are",
  "- Revenue up 12%",
  "Notes: Open with the revenue number.",
  "## What we will do",
  "- Hire two engineers",
  "## What we need",
  "- The board's approval",
].join("\n\n");

async function send(page: Page, text: string) {
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill(text);
  await input.press("Enter");
}

test("a deck made from an outline shows as a card, downloads as a pptx with a slide per heading, and stays after a reload", async ({ page }) => {
  // A turn, a file written and read, a download and a reload: more than the default 30 s on a busy two-core machine.
  await fakeGemini.reset();
  await signIn(page);
  const conversationId = (await (await page.request.post("/api/conversations", { data: { name: `Deck ${Date.now()}` } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  await fakeGemini.script(
    { functionCalls: [{ name: "createDocument", args: { format: "pptx", title: "Board update", content: DECK } }] },
    { text: "Your deck is ready: four slides with speaker notes." },
  );
  await send(page, OUTLINE);

  const card = page.getByTestId("document-card");
  // The first document a server writes loads the writer (a few seconds on a busy machine).
  await expect(card).toContainText("Board update.pptx", { timeout: 30_000 });
  await expect(card).toContainText("PowerPoint deck");
  await expect(page.getByTestId("chat-message").last()).toContainText("Your deck is ready");
  const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: "Download Board update.pptx" }).click()]);
  expect(download.suggestedFilename()).toBe("Board update.pptx");
  const entries = zipEntries(await readFile(await download.path()));
  const slides = [...entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
  expect(slides).toHaveLength(4); // the title slide and one per ## heading
  expect(entries.get("ppt/slides/slide2.xml")).toContain("Where we are");
  expect([...entries.entries()].some(([name, xml]) => name.startsWith("ppt/notesSlides/") && xml.includes("Open with the revenue number."))).toBe(true);

  // The file is in the conversation's knowledge, and the card is drawn again from the saved answer.
  await page.reload();
  await expect(page.getByTestId("document-card")).toContainText("Board update.pptx");
  await expect(page.getByTestId("document-card").getByRole("link", { name: "Download Board update.pptx" })).toHaveAttribute(
    "href",
    /^\/api\/files\/\d+\/download$/,
  );
  const files = await (await page.request.get(`/api/conversations/${conversationId}/files`)).json();
  expect(files.map((file: { name: string }) => file.name)).toContain("Board update.pptx");
});

test("the chat page's Export menu downloads the conversation as Markdown", async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  const conversationId = (await (await page.request.post("/api/conversations", { data: { name: "Export me" } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  await fakeGemini.script({ text: "The board meets on Friday." });
  await send(page, "When does the board meet?");
  await expect(page.getByTestId("chat-message").last()).toContainText("The board meets on Friday.");
  await page.getByRole("button", { name: "Export this conversation" }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown (.md)" }).click()]);
  expect(download.suggestedFilename()).toBe("Export me.md");
  const text = await readFile(await download.path(), "utf8");
  expect(text).toMatch(/^# Export me\n\n## You · .*\n\nWhen does the board meet\?\n\n## SAGE · .*\n\nThe board meets on Friday\.\n$/);
});

test("the canvas: edit a deck's draft, preview it, export it again, and SAGE revises the edited text", async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  const conversationId = (await (await page.request.post("/api/conversations", { data: { name: `Canvas ${Date.now()}` } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  await fakeGemini.script(
    { functionCalls: [{ name: "createDocument", args: { format: "pptx", title: "Board update", content: DECK } }] },
    { text: "Your deck is ready." },
  );
  await send(page, OUTLINE);
  const card = page.getByTestId("document-card");
  await expect(card).toContainText("Board update.pptx", { timeout: 30_000 });

  // The draft opens beside the chat with the Markdown the deck was written from.
  await card.getByRole("button", { name: "Edit draft Board update.pptx" }).click();
  const canvas = page.getByRole("dialog", { name: "Draft: Board update" });
  await expect(canvas).toBeVisible();
  const text = canvas.getByRole("textbox", { name: "Text (Markdown)" });
  await expect(text).toHaveValue(DECK);
  await expect(canvas.getByRole("status")).toHaveText("Exported");
  await text.fill(DECK.replace("Revenue up 12%", "Revenue up 14%, audited"));
  await expect(canvas.getByRole("status")).toHaveText("Unsaved changes");
  await canvas.getByRole("tab", { name: "Preview" }).click();
  await expect(canvas.getByTestId("draft-preview").getByRole("heading", { name: "Where we are" })).toBeVisible();
  await expect(canvas.getByTestId("draft-preview")).toContainText("Revenue up 14%, audited");

  // Export saves the edit and writes the deck again; the new file downloads with the edit in it.
  await canvas.getByRole("button", { name: "Export" }).click();
  await expect(canvas.getByRole("status")).toHaveText("Exported", { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), canvas.getByRole("link", { name: /^Download Board update.*\.pptx$/ }).click()]);
  const entries = zipEntries(await readFile(await download.path()));
  expect(entries.get("ppt/slides/slide2.xml")).toContain("Revenue up 14%, audited");
  await page.keyboard.press("Escape");
  await expect(canvas).toBeHidden();

  // Asked for a change, SAGE reads the edited draft and revises it: a new card, whose draft holds the revision.
  const revised = DECK.replace("Revenue up 12%", "Revenue up 14%, audited").replace("- Hire two engineers", "- Hire two engineers by March");
  await fakeGemini.script(
    { functionCalls: [{ name: "readDocumentDraft", args: {} }] },
    { functionCalls: [{ name: "reviseDocument", args: { content: revised } }] },
    { text: "I added the hiring date." },
  );
  await send(page, "Add that we hire by March");
  await expect(page.getByTestId("chat-message").last()).toContainText("I added the hiring date.", { timeout: 30_000 });
  await expect(page.getByTestId("document-card")).toHaveCount(2);
  await page
    .getByTestId("document-card")
    .last()
    .getByRole("button", { name: /^Edit draft Board update/ })
    .click();
  await expect(page.getByRole("dialog", { name: "Draft: Board update" }).getByRole("textbox", { name: "Text (Markdown)" })).toHaveValue(
    /Revenue up 14%, audited[\s\S]*Hire two engineers by March/,
  );
});
