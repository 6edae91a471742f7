import { expect, test, type APIRequestContext } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// One fake model serves the whole file: run its tests one after another so scripts do not interleave.
test.describe.configure({ mode: "serial" });

async function addNote(request: APIRequestContext, content: string, conversationId = 0) {
  const created = await request.post("/api/files", { data: { type: "note", content, conversationId, parentId: 0, description: "e2e note" } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  const processed = await request.post("/api/process-note", { data: { fileId: id, type: "note", content, conversationId, parentId: 0 } });
  expect(processed.ok()).toBe(true);
  return id;
}

test("the vector-augmented test page answers from the knowledge base and shows errors", async ({ page }) => {
  await signIn(page);
  await addNote(page.request, "Warren Buffett prefers wonderful businesses at fair prices and holds them for decades.");
  await page.goto("/test-gemini");

  const input = page.getByPlaceholder("Ask about Warren Buffett's investment ideas...");
  const search = page.getByRole("button", { name: "Search" });
  await expect(search).toBeDisabled();
  await input.fill("   ");
  await expect(search).toBeDisabled();

  await fakeGemini.script({ text: "Buffett buys **wonderful businesses** at fair prices [1].", gate: "buffett" });
  await input.fill("What does Buffett buy?");
  await search.click();
  await expect(page.getByRole("button", { name: "Processing" })).toBeDisabled();
  await fakeGemini.open("buffett");
  await expect(page.getByText("Response:")).toBeVisible();
  await expect(page.getByTestId("test-gemini-response").locator("strong")).toHaveText("wonderful businesses");
  const requests = (await fakeGemini.requests()) as { action: string; body: unknown }[];
  // This question's request, not the last one: the shared e2e server may be sorting another test's mail meanwhile.
  const asked = requests.filter((request) => request.action === "generateContent" && JSON.stringify(request.body).includes("What does Buffett buy?"));
  expect(asked).toHaveLength(1);
  expect(JSON.stringify(asked[0]!.body)).toContain("holds them for decades");

  await fakeGemini.script({ error: { status: 500, message: "model overloaded" } });
  await input.fill("And what does he avoid?");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("alert")).toContainText("Error: Failed to get response from Gemini");
});

test("the web search test page shows the answer and its sources, or an error card", async ({ page }) => {
  await signIn(page);
  await page.goto("/web-search-test");
  const input = page.getByLabel("Web search query");
  await fakeGemini.script({ text: "Rates were held at **4.5%**.", sources: [{ title: "Central bank", uri: "https://example.com/rates" }], gate: "rates" });
  await input.fill("current interest rate");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("button", { name: "Searching..." })).toBeVisible();
  await fakeGemini.open("rates");
  await expect(page.getByTestId("web-search-response").locator("strong")).toHaveText("4.5%");
  await expect(page.getByLabel("Sources")).toHaveValue(/example\.com\/rates/);

  await fakeGemini.script({ error: { status: 500, message: "search backend down" } });
  await input.fill("another question");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("alert")).toContainText("Error:");
});

test("the Relevant Files panel follows what is typed in the chat box", async ({ page }) => {
  await signIn(page);
  const created = await page.request.post("/api/conversations", { data: { name: "Recommendations check" } });
  const { id } = (await created.json()) as { id: number };
  await addNote(page.request, "Quarterly budget review agenda for the board meeting: hiring plan and product roadmap.", id);
  await page.goto(`/conversations/${id}`);

  const panel = page.getByRole("region", { name: "Relevant Files" });
  await expect(panel.getByText("Type a message to see related files.")).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("budget");
  await expect(panel.getByText("Type a message to see related files.")).toBeVisible();
  await box.fill("prepare the quarterly budget review for the board meeting");
  const item = panel.getByRole("button", { name: /Quarterly budget/ });
  await expect(item).toBeVisible();
  await expect(item).toContainText(/\d+%/);
});

test("on a phone, the closed Files panel's button counts the files relevant to the draft", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const created = await page.request.post("/api/conversations", { data: { name: "Phone recommendations" } });
  const { id } = (await created.json()) as { id: number };
  await addNote(page.request, "Quarterly budget review agenda for the board meeting: hiring plan and product roadmap.", id);
  await page.goto(`/conversations/${id}`);

  const files = page.getByRole("button", { name: /^Open Files panel/ });
  await expect(files).toHaveAccessibleName("Open Files panel");
  await expect(page.getByTestId("files-count-badge")).toHaveCount(0);
  await page.getByRole("textbox", { name: "Message" }).fill("prepare the quarterly budget review for the board meeting");
  await expect(page.getByTestId("files-count-badge")).toHaveText(/^[1-9]$/);
  const count = Number(await page.getByTestId("files-count-badge").textContent());
  await expect(files).toHaveAccessibleName(`Open Files panel, ${count} relevant ${count === 1 ? "file" : "files"}`);
  await files.click();
  await expect(page.getByRole("region", { name: "Relevant Files" }).getByRole("listitem")).toHaveCount(count);
});

test("the Knowledge Base vector buttons export a backup and reset after confirmation", async ({ page }) => {
  // Export, reset and re-vectorize each wait on the server: on a loaded machine 30 s is not always enough.
  await signIn(page);
  await addNote(page.request, "Vector buttons check: a note about capital allocation.");
  await page.goto("/settings");
  await expect(page.getByTestId("vector-status").getByRole("status")).toHaveText(/^Search is ready for (all \d+ passages|your 1 passage)\.$/);
  await page.getByTestId("vector-status").getByText("Details").click();
  await expect(page.getByTestId("vector-status")).toContainText("Embedder gemini:gemini-embedding-001:768");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export Vector DB" }).click()]);
  expect(download.suggestedFilename()).toBe("vector_db_backup.zip");

  await page.getByRole("button", { name: "Reset Vector Database" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Reset Vector Database" })).toBeVisible();
  await dialog.getByRole("button", { name: "Reset", exact: true }).click();
  const toasts = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
  await expect(toasts.filter({ hasText: /Vector database reset: \d+ vectors? removed/ })).toBeVisible();
  await expect(page.getByTestId("vector-status")).toContainText(/: 0 of \d+ chunks? vectorized/);

  await page.getByRole("button", { name: "Re-vectorize DB" }).click();
  await expect(toasts.filter({ hasText: /Search is ready again for \d+ passages?\./ })).toBeVisible();
});
