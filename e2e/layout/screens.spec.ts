import { writeFileSync } from "node:fs";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";
import { preloadAxe } from "../support/accessibility-audit.ts";
import { coveringElement } from "../support/layout-audit.ts";
import { BASE_URL } from "../support/ports.ts";
import { SCREENSHOTS, screenAuditor } from "../support/screen-audit.ts";
import { SEEDED_MEETINGS, seedScreens, type SeededScreens } from "../support/seed-screens.ts";
import { toastWith } from "../support/toasts.ts";
import { createUser } from "../support/users.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

/**
 * Every route and the main dialogs and sheets: no sideways overflow, nothing covered, no text cut without an
 * ellipsis and a title, the composer's Send button never covered, and no serious or critical axe violation. One
 * logged-in context per walk, over data seeded once.
 */
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 800, height: 900 };
const DESKTOP = { width: 1440, height: 900 };
/**
 * Layout depends on the width, colour contrast on the theme (decisions 089, 109), so four walks cover what six did:
 * every width once, and each theme in both arrangements. Below 64rem (390 and 800 px) the conversation's panels are
 * sheets, above it side columns; settings' menu is a column from 768 px. Dark walks 390 and 1440 px, light 800 and
 * 1440 px: light at 390 px shows what light at 800 px and dark at 390 px show between them.
 */
const WALKS = [
  { viewport: PHONE, theme: "dark" },
  { viewport: TABLET, theme: "light" },
  { viewport: DESKTOP, theme: "light" },
  { viewport: DESKTOP, theme: "dark" },
] as const;

// The walks are the longest tests: they share both workers, each worker seeding its own server once (beforeAll).
test.describe.configure({ mode: "parallel" });

let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let seeded: SeededScreens;

test.beforeAll(async ({ browser }) => {
  // Seeding uploads, fetches and embeds: slow on a loaded two-core machine.
  const context = await browser.newContext({ baseURL: BASE_URL, serviceWorkers: "block" });
  const page = await context.newPage();
  await login(page, await createUser("layout"));
  seeded = await seedScreens(page.request);
  storageState = await context.storageState();
  await context.close();
});

async function open(browser: Browser, viewport: { width: number; height: number }, colorScheme: "light" | "dark", loggedIn: boolean) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport,
    colorScheme,
    reducedMotion: "reduce",
    serviceWorkers: "block",
    storageState: loggedIn ? storageState : undefined,
  });
  await preloadAxe(context);
  return context;
}

/** A batch of two files for the description step; the first one's heading is the suggestion. */
const DESCRIBED_FILES = [
  {
    name: "quarterly-board-review-revenue-against-plan-and-hiring-plan-2026.md",
    mimeType: "text/markdown",
    buffer: Buffer.from("# Quarterly board review: revenue against plan and the hiring plan\n\nRevenue grew eleven percent."),
  },
  { name: "investor-letter.txt", mimeType: "text/plain", buffer: Buffer.from("Dear investors, the quarter closed ahead of plan.") },
];

/** A call waiting for Approve or Decline in the seeded conversation, with long words as a real one has. */
const pendingApproval = (conversationId: number) => ({
  approvalId: "layout-walk-approval",
  name: "notes__write_note",
  args: {
    name: "board-review-follow-ups-for-the-chair-and-the-audit-committee",
    text: "Send the revenue appendix and the hiring plan summary to every director before the Thursday review; confirm the venue.",
  },
  // The red card (issue 47): its longest words and its warning are what the walk checks at every width.
  risk: "content-derived",
  provenance: { text: { from: "content", source: { title: "board-minutes.txt", fileId: 1 } } },
  reason: "This text appears only in board-minutes.txt; you never wrote it.",
  conversationId,
});

const topDialog = (page: Page) => page.locator("[role='dialog'][data-state='open'], [role='alertdialog'][data-state='open']").last();

/**
 * Clicks like a user; if something covers the target (a defect the audit reports on its own), reaches it from the
 * keyboard instead, so that one defect does not hide the findings on the screens after it.
 */
async function press(target: Locator) {
  try {
    await target.click({ timeout: 5000 });
  } catch {
    // Under load a click can be performed and still time out in what Playwright does after it ("waiting for
    // scheduled navigations"): a target the click took away (Stop generating, a menu item) needs no second press.
    // Seen in a trace of the research step at 390 px: "click action done" at 5.5 s, then Enter found no Stop.
    if ((await target.count()) === 0) return;
    await target.press("Enter", { timeout: 5000 });
  }
}

/**
 * Opens a route the way the app's own links do (history.pushState, which the router follows), so one page serves
 * every screen without reloading the app and axe-core each time.
 */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => history.pushState(null, "", to), path);
}

/** Escape closes the top layer; waits until it is gone (not only closing), so the next Escape reaches the one below. */
async function closeTopLayer(page: Page) {
  const layers = page.locator("[role='dialog'], [role='alertdialog'], [role='menu']");
  const before = await layers.count();
  await page.keyboard.press("Escape");
  await expect(layers).toHaveCount(Math.max(0, before - 1));
}

for (const { viewport, theme } of WALKS) {
  test(`every screen at ${viewport.width}px in the ${theme} theme`, async ({ browser }, testInfo) => {
    test.setTimeout(600_000);
    const label = `${viewport.width}-${theme}`;

    const loggedOut = await open(browser, viewport, theme, false);
    const loginPage = await loggedOut.newPage();
    const loginAudit = screenAuditor(loginPage, testInfo, label);
    await loginPage.goto("/login");
    await expect(loginPage.getByRole("button", { name: "Login" })).toBeVisible();
    await loginAudit.check("login");
    await loggedOut.close();

    const context = await open(browser, viewport, theme, true);
    const page = await context.newPage();
    const audit = screenAuditor(page, testInfo, label);

    // Conversations: grid, list, the item menu and its dialogs, the reminders sheet and its form.
    await page.goto("/conversations");
    await expect(page.locator("html")).toHaveClass(new RegExp(`(^|\\s)${theme}(\\s|$)`));
    await expect(page.getByTestId("conversation-item")).toHaveCount(6);
    await expect(page.getByTestId("upcoming-reminders").getByRole("listitem").first()).toBeVisible();
    // The Today panel with its meetings (issue 52 item 15: cut off at 390 px before).
    await expect(page.getByTestId("today-panel").getByRole("region", { name: "Next meetings" }).getByRole("listitem")).toHaveCount(SEEDED_MEETINGS.length);
    await audit.check("conversations-grid");
    await press(page.getByRole("button", { name: "List view" }));
    await audit.check("conversations-list");
    await press(page.getByRole("button", { name: `Actions for ${seeded.conversationName}` }));
    await expect(page.getByRole("menuitem", { name: "Edit Name" })).toBeVisible();
    await audit.check("conversation-menu");
    await press(page.getByRole("menuitem", { name: "Edit Name" }));
    await expect(page.getByRole("dialog", { name: "Edit Conversation Name" })).toBeVisible();
    await audit.check("edit-name-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: `Actions for ${seeded.conversationName}` }));
    await press(page.getByRole("menuitem", { name: "Delete" }));
    await expect(page.getByRole("alertdialog", { name: "Delete Conversation" }).or(page.getByRole("dialog", { name: "Delete Conversation" }))).toBeVisible();
    await audit.check("delete-conversation-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: "Recently deleted" }));
    await expect(page.getByRole("dialog", { name: "Recently deleted" }).getByTestId("deleted-conversation")).toBeVisible();
    await audit.check("recently-deleted-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("navigation", { name: "Utilities" }).getByRole("button", { name: /^Reminders/ }));
    await expect(page.getByRole("dialog", { name: "Reminders" })).toBeVisible();
    await audit.check("reminders-sheet");
    await press(page.getByRole("button", { name: "New Reminder" }));
    await expect(page.getByRole("dialog", { name: "Create New Reminder" })).toBeVisible();
    await audit.check("new-reminder-dialog");
    await closeTopLayer(page);
    await closeTopLayer(page);

    // The conversation: chat, panels (sheets on small screens), their dialogs, and a toast beside the composer.
    await visit(page, `/conversations/${seeded.conversationId}`);
    await expect(page.getByText("Draft the agenda for the Q3 board review.")).toBeVisible();
    await audit.check("conversation");
    // A regenerated answer's versions: stepped back to the first, then forward again (issue 32, decision 045).
    const answer = page.locator('[data-testid="chat-message"][data-role="ai"]').last();
    await expect(answer.getByRole("group", { name: "Version 2 of 2" })).toBeVisible();
    await press(answer.getByRole("button", { name: "Previous version" }));
    await expect(answer.getByRole("group", { name: "Version 1 of 2" })).toBeVisible();
    await expect(answer).toContainText("The minutes say revenue grew eleven percent against plan.");
    await audit.check("message-versions");
    await press(answer.getByRole("button", { name: "Next version" }));
    await expect(answer.getByRole("group", { name: "Version 2 of 2" })).toBeVisible();
    // A tool SAGE ran: the line opened to its input and result, then its technical Details.
    const toolRun = page.getByTestId("tool-run").first();
    await press(toolRun.locator("summary").first());
    await expect(toolRun.getByRole("region", { name: "Result" })).toBeVisible();
    await press(toolRun.getByText("Details", { exact: true }));
    await expect(toolRun.getByText("searchDocuments")).toBeVisible();
    await audit.check("tool-run-open");
    await press(page.getByRole("button", { name: "Edit name" }));
    await audit.check("conversation-rename");
    await page.route(`**/api/conversations/${seeded.conversationId}`, (route) =>
      route.request().method() === "PATCH" ? route.fulfill({ status: 500, body: "no" }) : route.fallback(),
    );
    await press(page.getByRole("button", { name: "Save" }));
    const toast = toastWith(page, "Failed to update name");
    await expect(toast).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).fill("What should the board see first?");
    expect.soft(await coveringElement(page, "button[aria-label='Send message']"), "the Send button is covered while a toast shows").toBeNull();
    expect.soft(await coveringElement(page, "textarea[aria-label='Message']"), "the message box is covered while a toast shows").toBeNull();
    if (SCREENSHOTS) await page.screenshot({ path: testInfo.outputPath(`${label}-conversation-toast.jpeg`), type: "jpeg", quality: 80 });
    // Closed, or gone by itself after 5 seconds: either way no toast stays for the screens after.
    await toast
      .getByRole("button", { name: "Close" })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await expect(toast).toHaveCount(0, { timeout: 10_000 });
    await page.unroute(`**/api/conversations/${seeded.conversationId}`);
    await press(page.getByRole("button", { name: "Cancel" }));

    // The canvas: a document's draft beside the chat, in the editor and in the preview (issue 32).
    await visit(page, `/conversations/${seeded.draftConversationId}`);
    await press(page.getByTestId("document-card").getByRole("button", { name: /^Edit draft/ }));
    const canvas = page.getByRole("dialog", { name: /^Draft: / });
    await expect(canvas.getByRole("textbox", { name: "Text (Markdown)" })).toHaveValue(/Revenue grew eleven percent/);
    await audit.check("draft-canvas");
    await press(canvas.getByRole("tab", { name: "Preview" }));
    await expect(canvas.getByTestId("draft-preview").getByRole("table")).toBeVisible();
    await audit.check("draft-canvas-preview");
    await closeTopLayer(page);
    await visit(page, `/conversations/${seeded.conversationId}`);

    const filesToggle = page.getByRole("button", { name: /Files panel/ });
    const small = await filesToggle.isVisible();
    // A draft that matches files: the closed Files panel says how many (issue 33 item 12).
    await page.getByRole("textbox", { name: "Message" }).fill("board minutes revenue");
    if (small) {
      await expect(page.getByTestId("files-count-badge")).toBeVisible({ timeout: 15_000 });
      await audit.check("files-count-badge");
      await press(filesToggle);
      await expect(page.getByRole("heading", { name: "Conversation Knowledge" })).toBeVisible();
      await audit.check("files-panel");
    }
    // A file's preview with its text (issue 33 items 4, 11).
    await press(page.getByRole("button", { name: seeded.uploadName, exact: true }));
    await expect(topDialog(page).getByTestId("preview-document-text")).toContainText("Revenue grew eleven percent");
    await audit.check("file-preview-text");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: "Add Knowledge" }));
    await expect(page.getByRole("dialog", { name: /Add Knowledge/ })).toBeVisible();
    await audit.check("add-knowledge-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: `Remove ${seeded.failedFileName}` }));
    await expect(topDialog(page)).toContainText("Remove Knowledge File");
    await audit.check("remove-file-dialog");
    await closeTopLayer(page);
    if (small && (await topDialog(page).count()) > 0) await closeTopLayer(page);
    if (small) {
      await press(page.getByRole("button", { name: /Reminders panel/ }));
      await expect(page.getByRole("heading", { name: "Reminders", exact: true })).toBeVisible();
      await audit.check("reminders-panel");
    }
    await press(page.getByRole("button", { name: "Add Reminder" }));
    await expect(page.getByRole("dialog", { name: "Create Reminder" })).toBeVisible();
    await audit.check("reminder-form-dialog");
    await closeTopLayer(page);
    if (small && (await topDialog(page).count()) > 0) await closeTopLayer(page);

    // A card waiting for the user's Approve or Decline, with its Details open (issue 33 items 8, 9). The card a
    // run left is asked for every 5 s; this one is answered by the test, so no turn waits on it.
    await page.route("**/api/approvals", (route) =>
      route.request().method() === "GET" ? route.fulfill({ json: { approvals: [pendingApproval(seeded.conversationId)] } }) : route.fallback(),
    );
    const approvalCard = page.getByTestId("approval-card");
    await expect(approvalCard).toBeVisible({ timeout: 15_000 });
    await expect(approvalCard.getByRole("button", { name: "Approve" })).toBeVisible();
    await expect(approvalCard.getByRole("button", { name: "Decline" })).toBeVisible();
    await approvalCard.scrollIntoViewIfNeeded();
    await press(approvalCard.getByText("Details", { exact: true }));
    await expect(approvalCard.getByLabel("Arguments")).toBeVisible();
    await audit.check("approval-card");
    await page.unroute("**/api/approvals");

    // Research (decision 046): a finished report with its steps and chips, then a run in progress, stopped.
    await visit(page, `/conversations/${seeded.researchConversationId}`);
    await expect(page.getByTestId("research-progress")).toContainText("Reading Electric truck sales 2026");
    await expect(page.getByTestId("citation-chip").first()).toBeVisible();
    await audit.check("research-report");
    // Both replies name the request they are for: the commitments round (every 5 minutes, from the server's start)
    // asks for JSON too, and took the plan when it came first, so the run went on without it and ended by itself
    // before Stop (seen at 390 px light, the first walk after the seed, under load). The web search never answers
    // (held until Stop closes it): before, it answered after 60 s, and a slow audit let the run finish first.
    await fakeGemini.script(
      { json: { questions: ["electric truck prices in 2026", "charging depots for a fleet of forty trucks"] }, match: "You plan research" },
      { text: "Prices fell.", sources: [{ title: "Truck prices", uri: "http://127.0.0.1:9/prices" }], match: "electric truck prices in 2026", hold: true },
    );
    await press(page.getByRole("button", { name: "Research", exact: true }));
    await page.getByRole("textbox", { name: "Message" }).fill("Electric truck prices and charging for our fleet");
    await press(page.getByRole("button", { name: "Start research" }));
    await expect(page.getByTestId("research-step").last()).toHaveText("Searching the web: electric truck prices in 2026");
    await audit.check("research-progress");
    await press(page.getByRole("button", { name: "Stop generating" }));
    await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();

    // A failed model answer: the error, its reason in words, and Retry (issue 52 item 13).
    await visit(page, `/conversations/${seeded.failedAnswerConversationId}`);
    await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
    await audit.check("model-failure");

    await visit(page, "/conversations/999999");
    await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
    await audit.check("conversation-not-found");

    // Settings > Knowledge Base: items, the item menu, preview sheet, move and delete dialogs, search, a folder.
    await visit(page, "/settings");
    const items = page.getByRole("list", { name: "Knowledge items" });
    await expect(items.getByTestId("knowledge-item")).not.toHaveCount(0);
    await audit.check("knowledge-base");
    await press(page.getByRole("button", { name: `Actions for ${seeded.noteName}` }));
    await expect(page.getByRole("menuitem", { name: "Move to..." })).toBeVisible();
    await audit.check("knowledge-item-menu");
    await press(page.getByRole("menuitem", { name: "Move to..." }));
    await expect(topDialog(page)).toBeVisible();
    await audit.check("move-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: `Actions for ${seeded.noteName}` }));
    await press(page.getByRole("menuitem", { name: "Delete" }));
    await expect(topDialog(page)).toBeVisible();
    await audit.check("delete-item-dialog");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: `Preview ${seeded.noteName}` }));
    await expect(topDialog(page)).toContainText("Edit Description");
    await audit.check("preview-sheet");
    await closeTopLayer(page);
    await press(page.getByRole("button", { name: "Reset Vector Database" }));
    await expect(topDialog(page)).toBeVisible();
    await audit.check("reset-vector-dialog");
    await closeTopLayer(page);
    await page.getByLabel("Search knowledge base").fill("board");
    await expect(items.getByTestId("knowledge-item").nth(2)).toBeVisible();
    await audit.check("knowledge-search");
    await page.getByLabel("Search knowledge base").fill("");
    // Adding a batch: the description step, pre-filled from the file's text, with "Use this description for all
    // remaining files" (issue 33 item 3). Closed with Discard: nothing is added.
    await press(page.getByRole("button", { name: "Add Knowledge" }));
    await page.getByLabel("Choose files").setInputFiles(DESCRIBED_FILES);
    await press(topDialog(page).getByRole("button", { name: "Next" }));
    await expect(topDialog(page).getByLabel("Description")).toHaveValue("Quarterly board review: revenue against plan and the hiring plan");
    await expect(topDialog(page).getByRole("button", { name: "Use this description for all remaining files" })).toBeVisible();
    await audit.check("add-knowledge-describe");
    await page.keyboard.press("Escape");
    await press(page.getByRole("button", { name: "Discard", exact: true }));
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await press(page.getByRole("button", { name: `Open folder ${seeded.folderName}` }));
    await expect(items.getByTestId("knowledge-item")).toHaveCount(1);
    await audit.check("knowledge-folder");

    await visit(page, "/settings?section=schedules");
    const schedule = page.getByRole("listitem", { name: seeded.scheduleTitle });
    await expect(schedule).toBeVisible();
    await press(schedule.getByRole("button", { name: "History" }));
    await audit.check("schedules");
    await visit(page, "/settings?section=accounts");
    await expect(page.getByRole("heading", { name: "Accounts", exact: true })).toBeVisible();
    await audit.check("accounts");

    await visit(page, "/settings?section=commitments");
    await expect(page.getByRole("heading", { name: "Commitments", exact: true })).toBeVisible();
    await audit.check("commitments");

    await visit(page, "/settings?section=user-preferences");
    await expect(page.getByRole("radiogroup", { name: "Theme" })).toBeVisible();
    await audit.check("user-preferences");
    await visit(page, "/settings?section=memory");
    await expect(page.getByRole("switch", { name: "Let SAGE remember" })).toBeVisible();
    await expect(page.getByText("Prefers emails under 100 words")).toBeVisible();
    await audit.check("memory");
    await press(page.getByRole("button", { name: "Edit memory: Prefers emails under 100 words" }));
    await expect(page.getByRole("textbox", { name: "Edit memory" })).toBeVisible();
    await audit.check("memory-edit");
    await visit(page, "/settings?section=tools");
    await expect(page.getByRole("region", { name: "notes", exact: true }).getByTestId("tool-server-state")).toHaveText("Connected", { timeout: 30_000 });
    await audit.check("tools");
    await visit(page, "/test-gemini");
    await expect(page.getByRole("button", { name: "Search" })).toBeVisible();
    await audit.check("vector-model-test");
    await visit(page, "/web-search-test");
    await expect(page.getByRole("button", { name: "Search" })).toBeVisible();
    await audit.check("web-search-test");
    await visit(page, "/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await audit.check("not-found");

    // Last, as it loads the app again with no model: the chat's banner before anything is typed (issue 33 item 13).
    await page.route("**/api/assistant/settings", (route) =>
      route.fulfill({ json: { provider: "none", modelId: null, allowedModels: [], keySet: false, baseUrl: null, webSearch: "none" } }),
    );
    await page.goto(`/conversations/${seeded.conversationId}`);
    const banner = page.getByRole("region", { name: "No AI model is connected" });
    await expect(banner).toBeVisible();
    await press(banner.getByText("Technical details"));
    await expect(banner.getByText(/GEMINI_API_KEY/)).toBeVisible();
    await audit.check("no-model-banner");
    await context.close();

    const reports = [...loginAudit.reports, ...audit.reports];
    const reportPath = testInfo.outputPath(`${label}-audit.json`);
    writeFileSync(reportPath, JSON.stringify(reports, null, 2));
    await testInfo.attach(`${label}-audit.json`, { path: reportPath, contentType: "application/json" });
    expect.soft(loginAudit.failures(), "layout and accessibility findings on the login page").toEqual([]);
    expect.soft(audit.failures(), "layout and accessibility findings").toEqual([]);
  });
}
