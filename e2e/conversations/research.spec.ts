import { expect, test } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { TRUCK_SALES_PAGE, startLocalSite } from "../support/local-site.ts";
import { messageInput } from "../support/chat.ts";

// The fake Gemini's reply queue is shared: these tests run one after another.
test.describe.configure({ mode: "serial" });
// A run plans, searches, reads and writes: several model calls, each slow on a loaded two-core machine.

let site: Awaited<ReturnType<typeof startLocalSite>>;
test.beforeAll(async () => void (site = await startLocalSite({ "/sales": TRUCK_SALES_PAGE })));
test.afterAll(() => site.close());

let conversationId: number;

test.beforeEach(async ({ page }) => {
  await fakeGemini.reset();
  await signIn(page);
  conversationId = (await (await page.request.post("/api/conversations", { data: { name: `Research ${Date.now()}` } })).json()).id;
  await page.goto(`/conversations/${conversationId}`);
  await expect(messageInput(page)).toBeVisible();
});

test("the Research action shows each step live and ends in a report with citation chips", async ({ page }) => {
  await fakeGemini.script(
    { json: { questions: ["electric truck sales 2026"] } },
    // The search answers only once the test has seen its step: a delay, however long, a loaded machine can outrun.
    { text: "Sales doubled in 2026.", sources: [{ title: "Electric truck sales 2026", uri: `${site.origin}/sales` }], gate: "search" },
    { chunks: ["## Summary\n\n", "Registrations of electric trucks doubled in 2026 [1]."], delayMs: 1500 },
  );
  await page.getByRole("button", { name: "Research", exact: true }).click();
  await messageInput(page).fill("Electric trucks for our fleet");
  await page.getByRole("button", { name: "Start research" }).click();

  const progress = page.getByTestId("research-progress");
  await expect(progress).toContainText("Planned questions");
  await expect(progress).toContainText("electric truck sales 2026");
  await expect(progress.getByTestId("research-step").last()).toHaveText("Searching the web: electric truck sales 2026");
  await expect(page.getByRole("button", { name: "Stop generating" })).toBeVisible();
  await fakeGemini.open("search");
  await expect(progress).toContainText("Reading Electric truck sales 2026 (127.0.0.1)");
  await expect(progress).toContainText("Writing the report from 1 source");

  // The report: a normal answer whose chip opens the page it cites; the steps stay above it.
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  const answer = page.locator('[data-testid="chat-message"][data-role="ai"]').last();
  await expect(answer).toContainText("Registrations of electric trucks doubled in 2026 [1].");
  const chip = answer.getByTestId("citation-chip");
  await expect(chip).toHaveText(/\[1\]\s*Electric truck sales 2026/);
  await expect(chip).toHaveAttribute("href", `${site.origin}/sales`);
  await expect(page.getByTestId("research-progress")).toContainText("Reading Electric truck sales 2026");
  await page.reload();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last().getByTestId("citation-chip")).toHaveAttribute(
    "href",
    `${site.origin}/sales`,
  );
  await expect(page.getByTestId("research-progress")).toContainText("electric truck sales 2026");
});

test("Stop ends a research run: the answer says it stopped", async ({ page }) => {
  await fakeGemini.script(
    { json: { questions: ["electric truck depot charging"] } },
    { text: "Depot charging is the constraint.", sources: [{ title: "Depots", uri: `${site.origin}/depots` }], delayMs: 20_000 },
  );
  await page.getByRole("button", { name: "Research", exact: true }).click();
  await messageInput(page).fill("Depot charging for electric trucks");
  await page.getByRole("button", { name: "Start research" }).click();
  await expect(page.getByTestId("research-step").last()).toHaveText("Searching the web: electric truck depot charging");
  await page.getByRole("button", { name: "Stop generating" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toContainText("Research stopped before the report was written");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  // The server's saved answer takes the placeholder's place once saved, without a reload: the same words, saying
  // what it had found (nothing yet: the first search was still running).
  const stoppedAnswer = /Research stopped before the report was written\. No sources had been found yet\./;
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(stoppedAnswer);
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(stoppedAnswer);
});
