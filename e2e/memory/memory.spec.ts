import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// The fake Gemini's reply queue is shared: these tests run one after another. Each walks several server
// round trips (add, edit, refuse, delete), so it gets more than the default 30 s on a busy shared machine.
test.describe.configure({ mode: "serial" });

const memories = async (page: Page): Promise<{ content: string; source: string }[]> => (await page.request.get("/api/memories")).json();
const memoryList = (page: Page) => page.getByRole("list", { name: "Memories" });

test.beforeEach(async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
});

test("Settings > Memory adds, edits and deletes memories", async ({ page }) => {
  await page.goto("/settings?section=memory");
  await expect(page.getByRole("heading", { name: "Memory" })).toBeVisible();
  await expect(page.getByText("SAGE remembers nothing about you yet.")).toBeVisible();

  await page.getByRole("textbox", { name: "New memory" }).fill("Anna Berg is my chief of staff");
  await page.getByRole("button", { name: "Add memory" }).click();
  await expect(memoryList(page).getByRole("listitem")).toHaveCount(1);
  await expect(memoryList(page)).toContainText("Anna Berg is my chief of staff");
  await expect(memoryList(page)).toContainText("Added by you");
  await expect(page.getByRole("textbox", { name: "New memory" })).toHaveValue("");

  await page.getByRole("button", { name: "Edit memory: Anna Berg is my chief of staff" }).click();
  await page.getByRole("textbox", { name: "Edit memory" }).fill("Anna Berg is my chief of staff since May");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(memoryList(page)).toContainText("Anna Berg is my chief of staff since May");
  expect((await memories(page)).map((memory) => memory.content)).toEqual(["Anna Berg is my chief of staff since May"]);

  // A secret is refused with the server's words, and nothing is added.
  await page.getByRole("textbox", { name: "New memory" }).fill("My password is hunter2");
  await page.getByRole("button", { name: "Add memory" }).click();
  await expect(page.getByText("That looks like a password, code or account number; SAGE does not remember secrets").first()).toBeVisible();
  expect(await memories(page)).toHaveLength(1);

  await page.getByRole("button", { name: "Delete memory: Anna Berg is my chief of staff since May" }).click();
  await expect(memoryList(page).getByRole("listitem")).toHaveCount(0);
  expect(await memories(page)).toEqual([]);
});

test("Settings > Memory keeps the 'Let SAGE remember' switch on the server", async ({ page }) => {
  await page.goto("/settings?section=memory");
  const toggle = page.getByRole("switch", { name: "Let SAGE remember" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await page.reload();
  await expect(page.getByRole("switch", { name: "Let SAGE remember" })).toHaveAttribute("aria-checked", "false");
  expect(await (await page.request.get("/api/memory-settings")).json()).toEqual({ enabled: false });
});

test("the chat shows 'Remembered: …' when SAGE saves a memory, and Undo deletes it", async ({ page }) => {
  const conversationId = (await (await page.request.post("/api/conversations", { data: { name: "Memory chat" } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  await fakeGemini.script(
    { functionCalls: [{ name: "saveMemory", args: { content: "Anna Berg is the user's chief of staff" } }] },
    { text: "Noted, I'll remember that." },
  );
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill("Anna Berg is my chief of staff");
  await input.press("Enter");

  const line = page.getByTestId("remembered-line");
  await expect(line).toContainText("Remembered: Anna Berg is the user's chief of staff");
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(/Noted, I'll remember that\./);
  expect(await memories(page)).toEqual([expect.objectContaining({ content: "Anna Berg is the user's chief of staff", source: "assistant" })]);

  await line.getByRole("button", { name: "Undo" }).click();
  await expect(line).toHaveCount(0);
  expect(await memories(page)).toEqual([]);
});
