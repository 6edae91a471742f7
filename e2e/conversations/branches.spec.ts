import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { messageInput, turnDone } from "../support/chat.ts";

// Issue 32, decision 045: edit and regenerate keep the replaced messages as versions the user steps through.
test.describe.configure({ mode: "serial" });

const message = (page: Page, role: "user" | "ai") => page.locator(`[data-testid="chat-message"][data-role="${role}"]`);

test.beforeEach(async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
});

test("regenerate and edit keep versions: < 1/2 > steps between them, and the choice holds after a reload", async ({ page }) => {
  const { id } = await (await page.request.post("/api/conversations", { data: { name: "Capitals" } })).json();
  await page.goto(`/conversations/${id}`);
  await fakeGemini.script({ text: "Paris." });
  await messageInput(page).fill("What is the capital of France?");
  await messageInput(page).press("Enter");
  await turnDone(page);
  await expect(message(page, "ai")).toHaveText(/Paris\./);
  await expect(page.getByTestId("branch-switcher")).toHaveCount(0);

  await fakeGemini.script({ text: "Paris, of course." });
  await message(page, "ai").getByRole("button", { name: "Regenerate answer" }).click();
  await turnDone(page);
  await expect(message(page, "ai")).toHaveText(/Paris, of course\./);
  const answerVersions = message(page, "ai").getByRole("group", { name: "Version 2 of 2" });
  await expect(answerVersions).toContainText("2/2");

  await message(page, "ai").getByRole("button", { name: "Previous version" }).click();
  await expect(message(page, "ai")).toHaveText(/^SAGE: Paris\./);
  await expect(message(page, "ai").getByRole("group", { name: "Version 1 of 2" })).toBeVisible();
  await message(page, "ai").getByRole("button", { name: "Next version" }).click();
  await expect(message(page, "ai")).toHaveText(/Paris, of course\./);

  // Edit the question: the new version gets its own answer, and the model read only the edited question.
  await fakeGemini.script({ text: "Rome." });
  await message(page, "user").getByRole("button", { name: "Edit message" }).click();
  const editor = page.getByRole("textbox", { name: "Edit your message" });
  await editor.fill("What is the capital of Italy?");
  await editor.press("Enter");
  await turnDone(page);
  await expect(message(page, "user")).toHaveText(/What is the capital of Italy\?/);
  await expect(message(page, "ai")).toHaveText(/Rome\./);
  await expect(message(page, "user").getByRole("group", { name: "Version 2 of 2" })).toBeVisible();
  const chat = (await fakeGemini.requests()).filter((request) => request.action === "streamGenerateContent");
  expect(chat.at(-1)!.body.contents.map((content: { parts: { text?: string }[] }) => content.parts.map((part) => part.text ?? "").join(""))).toEqual([
    "What is the capital of Italy?",
  ]);

  // Back to the first question: its last shown answer comes with it, and stays after a reload.
  await message(page, "user").getByRole("button", { name: "Previous version" }).click();
  await expect(message(page, "user")).toHaveText(/What is the capital of France\?/);
  await expect(message(page, "ai")).toHaveText(/Paris, of course\./);
  await page.reload();
  await expect(message(page, "user")).toHaveText(/What is the capital of France\?/);
  await expect(message(page, "user").getByRole("group", { name: "Version 1 of 2" })).toBeVisible();
  await expect(message(page, "ai")).toHaveText(/Paris, of course\./);
});
