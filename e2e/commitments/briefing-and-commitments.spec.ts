import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// The fake Gemini's reply queue is shared: these tests run one after another, each as a fresh user.
test.describe.configure({ mode: "serial" });

/** Today as YYYY-MM-DD on this machine's clock (the browser, the server and this process share it). */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
};

test.beforeEach(async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
});

test("the morning briefing, switched on and run now, writes a message with citation chips, unread until opened", async ({ page }) => {
  const reminder = await page.request.post("/api/reminders", {
    data: { title: "Call the auditor", dueDate: today(), priority: "high", type: "reminder", status: "unread" },
  });
  expect(reminder.status()).toBe(201);

  await page.goto("/settings?section=schedules");
  const card = page.getByRole("form", { name: "Morning briefing" });
  await card.getByLabel("Send me the morning briefing").check();
  await card.getByRole("button", { name: "Save briefing" }).click();
  await expect(card.getByText(/^Next briefing: /)).toBeVisible();

  await fakeGemini.script({ text: "Call the auditor before anything else today." });
  await page.getByRole("button", { name: "Run now: Morning briefing" }).click();

  await page.goto("/conversations");
  const unread = page.getByRole("link", { name: /Unread: Morning briefing/ });
  await expect(async () => {
    await page.reload();
    await expect(unread).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await unread.click();

  const message = page.getByTestId("chat-message").filter({ hasText: "Reminders due" });
  await expect(message).toContainText("Call the auditor before anything else today.");
  await expect(message).toContainText("No calendar is connected");
  await expect(message).toContainText("Call the auditor, today");
  await expect(page.getByRole("list", { name: "Sources" }).getByLabel(/^Source 1: Reminder, Call the auditor/)).toBeVisible();

  await page.getByRole("link", { name: "Back to conversations" }).click();
  await expect(page.getByRole("link", { name: /Morning briefing/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /Unread: Morning briefing/ })).toHaveCount(0);
});

test("the commitments list opens a commitment's source at its sentence", async ({ page }) => {
  const sentence = "Carla promised to share the hiring plan by 2026-12-02.";
  const note = await page.request.post("/api/process-note", {
    data: { type: "note", name: "Board prep", content: `Board prep, Tuesday. ${sentence} Budget next.` },
  });
  expect(note.ok(), await note.text()).toBe(true);
  await fakeGemini.script({
    json: {
      commitments: [
        { direction: "owed-to-me", kind: "promise", owner: "Carla", counterparty: "me", what: "Share the hiring plan", dueDate: "2026-12-02", quote: sentence },
      ],
    },
  });

  await page.goto("/settings?section=commitments");
  await page.getByRole("button", { name: "Look for new commitments now" }).click();
  const row = page.getByRole("listitem", { name: "Share the hiring plan" });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText("Carla owes you");
  await row.getByRole("button", { name: /^Open source: Board prep/ }).click();
  const sheet = page.getByRole("dialog");
  await expect(sheet.getByRole("heading", { name: /Board prep/ })).toBeVisible();
  await expect(sheet.getByTestId("preview-cited-passage")).toContainText(sentence);
});
