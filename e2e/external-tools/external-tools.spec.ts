import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { e2eDataDir } from "../support/data-dir.mjs";
import { fakeGemini } from "../support/fake-gemini.ts";
import { E2E_PORT } from "../support/ports.ts";
import { messageInput } from "../support/chat.ts";

// The fake Gemini's reply queue is shared: these tests run one after another. The e2e server's mcp.json lists
// the testkit's notes server and a broken entry (e2e/support/start-server.mjs).
test.describe.configure({ mode: "serial" });

const notesDir = path.join(e2eDataDir(E2E_PORT), "notes");
const aiMessages = (page: Page) => page.locator('[data-testid="chat-message"][data-role="ai"]');

async function openConversation(page: Page) {
  await signIn(page);
  const response = await page.request.post("/api/conversations", { data: { name: `Tools ${Date.now()}` } });
  await page.goto(`/conversations/${(await response.json()).id}`);
  await expect(messageInput(page)).toBeVisible();
}

async function send(page: Page, text: string) {
  await messageInput(page).fill(text);
  await messageInput(page).press("Enter");
}

test.beforeEach(async () => {
  await fakeGemini.reset();
});

test("a tool that changes something shows an approval card; Approve runs it and the answer follows", async ({ page }) => {
  const name = `approved-${Date.now()}`;
  await openConversation(page);
  await fakeGemini.script({ functionCalls: [{ name: "notes__write_note", args: { name, text: "Board meeting Thursday" } }] }, { text: "I saved the note." });
  await send(page, "Save a note about the board meeting");
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole("heading")).toHaveText("SAGE wants to run Notes: write note");
  await expect(card.getByLabel("Input")).toContainText("TextBoard meeting Thursday");
  await card.getByText("Details").click();
  await expect(card.getByLabel("Arguments")).toContainText('"text": "Board meeting Thursday"');
  expect(existsSync(path.join(notesDir, `${name}.txt`))).toBe(false);
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card).toHaveCount(0);
  await expect(aiMessages(page).last()).toHaveText(/I saved the note\./);
  // What ran stays in the conversation as one collapsed line, also after a reload.
  await page.reload();
  const ran = page.getByTestId("tool-run");
  const line = ran.getByText(/^Ran Notes: write note - /);
  await expect(line).toBeVisible();
  await line.click();
  await expect(ran.getByLabel("Tool input")).toContainText("TextBoard meeting Thursday");
  expect(readFileSync(path.join(notesDir, `${name}.txt`), "utf8")).toBe("Board meeting Thursday");
});

test("Decline runs nothing and the model is told the user declined", async ({ page }) => {
  const name = `declined-${Date.now()}`;
  await openConversation(page);
  await fakeGemini.script({ functionCalls: [{ name: "notes__write_note", args: { name, text: "x" } }] }, { text: "Alright, I left it." });
  await send(page, "Save a note");
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole("button", { name: "Decline" }).click();
  await expect(aiMessages(page).last()).toHaveText(/Alright, I left it\./);
  await expect(card).toHaveCount(0);
  expect(existsSync(path.join(notesDir, `${name}.txt`))).toBe(false);
  const followUp = (await fakeGemini.requests()).filter((request) => request.action === "streamGenerateContent").at(-1)!;
  const response = followUp.body.contents.flatMap((content: any) => content.parts).find((part: any) => part.functionResponse).functionResponse.response.content;
  expect(response).toMatchObject({ success: false, message: "The user declined to run this tool." });
});

test("Settings > Tools shows each server's state, its tools, and keeps the user's choices", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings?section=tools");
  await expect(page.getByRole("heading", { name: "Tools", level: 2 })).toBeVisible();
  const notes = page.getByRole("region", { name: "notes", exact: true });
  const broken = page.getByRole("region", { name: "broken", exact: true });
  await expect(notes.getByTestId("tool-server-state")).toHaveText("Connected", { timeout: 30_000 });
  await expect(broken.getByTestId("tool-server-state")).toHaveText("Failed");
  await expect(broken).toContainText('Invalid server entry: needs "command"');
  const writeNote = notes.getByTestId("external-tool").filter({ hasText: "write_note" });
  const addNote = notes.getByTestId("external-tool").filter({ hasText: "add_note" });
  const readNote = notes.getByTestId("external-tool").filter({ hasText: "read_note" });
  await expect(readNote).toContainText("Read a note by name");
  await expect(writeNote).toContainText("Write a note (replaces one with the same name)");
  // Defaults: enabled; a read-only tool runs without asking, one that changes something asks.
  await expect(readNote.getByLabel("Enabled")).toBeChecked();
  await expect(readNote.getByLabel("Ask before running")).not.toBeChecked();
  await expect(addNote.getByLabel("Ask before running")).toBeChecked();
  // write_note replaces notes, and its server says so (destructiveHint): it always asks, and says why in words.
  await expect(writeNote.getByLabel("Ask before running")).toBeChecked();
  await expect(writeNote.getByLabel("Ask before running")).toBeDisabled();
  await expect(writeNote.getByTestId("external-tool-hints")).toContainText("Can delete or overwrite things, which may not be undone.");
  await addNote.getByLabel("Ask before running").click();
  await readNote.getByLabel("Enabled").click();
  await expect(addNote.getByLabel("Ask before running")).not.toBeChecked();
  await expect(readNote.getByLabel("Enabled")).not.toBeChecked();
  await page.reload();
  await expect(notes.getByTestId("tool-server-state")).toHaveText("Connected", { timeout: 30_000 });
  await expect(addNote.getByLabel("Ask before running")).not.toBeChecked();
  await expect(readNote.getByLabel("Enabled")).not.toBeChecked();
  await expect(writeNote.getByLabel("Ask before running")).toBeChecked();
});

test("Settings > Tools says in plain words why a tool is left out of chats, with the detail one click away", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings?section=tools");
  const notes = page.getByRole("region", { name: "notes", exact: true });
  await expect(notes.getByTestId("tool-server-state")).toHaveText("Connected", { timeout: 30_000 });
  const warning = notes.getByTestId("external-tool").filter({ hasText: "outline" }).getByTestId("external-tool-warning");
  await expect(warning).toContainText(
    "Gemini cannot use this tool, so chats leave it out: its input refers to itself without end, which Gemini cannot describe.",
  );
  const detail = warning.getByText('Recursive $ref "#/$defs/node" at properties.root.properties.children.items');
  await expect(detail).toBeHidden();
  await warning.getByText("Details").click();
  await expect(detail).toBeVisible();
  // A tool whose schema could be converted has no warning.
  await expect(notes.getByTestId("external-tool").filter({ hasText: "plan_meeting" }).getByTestId("external-tool-warning")).toHaveCount(0);
});
