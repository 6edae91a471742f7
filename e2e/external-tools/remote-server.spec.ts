import { expect, test } from "@playwright/test";
import { startEverythingHttp, type EverythingHttpServer } from "@sage/testkit/everything-server";
import { startMcpHttpServer } from "@sage/testkit/mcp-http-test-server";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { signIn } from "../support/auth.ts";
import { messageInput } from "../support/chat.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// A remote MCP server behind a real authorization server (oidc-provider with dynamic registration), both started
// here on loopback (the e2e server allows private addresses). The user adds it by URL and signs in in a popup.
test.describe.configure({ mode: "serial" });

const SCOPE = "notes";
let oauth: OAuthTestServer;
let mcp: Awaited<ReturnType<typeof startMcpHttpServer>>;
let everything: EverythingHttpServer;

test.beforeAll(async () => {
  const resources: Record<string, string[]> = {};
  oauth = await startOAuthServer({
    clients: [],
    users: [{ login: "ada", email: "ada@example.com", name: "Ada" }],
    resources,
    dynamicRegistration: true,
    scopes: [SCOPE],
  });
  mcp = await startMcpHttpServer({ oauth: { issuer: oauth.issuer, scope: SCOPE, introspect: (token) => oauth.introspect(token) } });
  resources[mcp.url] = [SCOPE];
  everything = await startEverythingHttp();
});
test.beforeEach(async () => {
  await fakeGemini.reset();
});
test.afterAll(async () => {
  await mcp?.close();
  await oauth?.stop();
  await everything?.close();
});

test("Settings > Tools: add a remote server by its address, sign in in a popup, and its tools appear", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto("/settings?section=tools");
  const form = page.getByRole("form", { name: "Add a server" });
  await form.getByLabel("Name").fill("crm");
  await form.getByLabel("Address").fill(mcp.url);
  const popupOpened = page.waitForEvent("popup");
  await form.getByRole("button", { name: "Add" }).click();
  // Adding it asks the server first (its 401): seconds on a loaded machine.
  await expect(form.getByTestId("added-server-status")).toHaveText("crm needs you to sign in: finish in the window that opened, or press Sign in below.", {
    timeout: 30_000,
  });
  const server = page.getByRole("region", { name: "crm", exact: true });
  await expect(server.getByTestId("tool-server-state")).toHaveText("Sign in needed");

  // The authorization server's own pages, in the popup: sign in, then allow SAGE.
  const popup = await popupOpened;
  await popup.waitForLoadState();
  expect(new URL(popup.url()).origin).toBe(oauth.issuer);
  await popup.locator('input[name="login"]').fill("ada");
  await popup.locator('input[name="password"]').fill("any");
  await popup.locator('button[type="submit"]').click();
  await popup.getByRole("button", { name: "Continue" }).click();
  // Back at SAGE, the popup tells the page and closes; the row turns connected with the server's tools.
  await popup.waitForEvent("close", { timeout: 30_000 });
  await expect(server.getByTestId("tool-server-state")).toHaveText("Connected", { timeout: 30_000 });
  await expect(server.getByTestId("external-tool").filter({ hasText: "whoami" })).toContainText("Whose sign-in this is");
  await expect(server.getByRole("button", { name: "Sign in" })).toHaveCount(0);

  // Removing it ends the sign-in at the authorization server too.
  const revoked = oauth.revocations.length;
  await server.getByRole("button", { name: "Remove" }).click();
  await expect(server).toHaveCount(0);
  expect(oauth.revocations.length).toBe(revoked + 1);
});

test("a connected server's prompt fills the message, its resource goes with it, and its question is answered on a card", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const added = await page.request.post("/api/tools/servers", { data: { name: "everything", url: everything.url } });
  expect((await added.json()).status).toBe("connected");
  // The server adds its question tool once it knows SAGE answers questions (tools/list_changed).
  await expect
    .poll(async () => JSON.stringify(await (await page.request.get("/api/tools")).json()), { timeout: 30_000 })
    .toContain("trigger-elicitation-request");
  const conversation = await page.request.post("/api/conversations", { data: { name: `Everything ${Date.now()}` } });
  await page.goto(`/conversations/${(await conversation.json()).id}`);

  // "/" lists the servers' prompts; one with an argument asks for it, then fills the message.
  await messageInput(page).fill("/args");
  const menu = page.getByTestId("prompt-menu");
  await menu.getByRole("button", { name: /\/args-prompt/ }).click();
  await menu.getByLabel(/city/).fill("Paris");
  await menu.getByRole("button", { name: "Use prompt" }).click();
  await expect(messageInput(page)).toHaveValue("What's weather in Paris?");

  // The paperclip's "From a connected tool" attaches a resource to the message.
  await page.getByRole("button", { name: "Attach", exact: true }).click();
  await page.getByRole("menuitem", { name: "From a connected tool" }).click();
  const picker = page.getByRole("dialog", { name: "From a connected tool" });
  const resource = picker.getByTestId("tool-resource").first();
  await resource.getByRole("button", { name: /^Attach / }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("list", { name: "Attached from your tools" }).getByRole("listitem")).toHaveCount(1);
  await fakeGemini.script({ text: "Sunny in Paris." });
  await messageInput(page).press("Enter");
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(/Sunny in Paris\./, { timeout: 30_000 });
  const asked = (await fakeGemini.requests()).filter((request) => request.action === "streamGenerateContent").at(-1)!;
  expect(JSON.stringify(asked.body.contents)).toContain("[Attached resource [1] from everything:");

  // The server's question (elicitation, form mode) shows as a card; Accept sends the answers to that server only.
  const tools = await page.request.patch("/api/tools/settings", { data: { server: "everything", tool: "trigger-elicitation-request", ask: false } });
  expect(tools.ok()).toBe(true);
  const next = await page.request.post("/api/conversations", { data: { name: `Question ${Date.now()}` } });
  await page.goto(`/conversations/${(await next.json()).id}`);
  await fakeGemini.script({ functionCalls: [{ name: "everything__trigger-elicitation-request", args: {} }] }, { text: "Thanks, Ada." });
  await messageInput(page).fill("Ask me something");
  await messageInput(page).press("Enter");
  const card = page.getByTestId("elicitation-card");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole("heading")).toHaveText("everything asks");
  await expect(card).toContainText("Please provide inputs for the following fields:");
  await card.getByLabel(/^String( \*)?$/).fill("Ada");
  await card.getByRole("button", { name: "Accept" }).click();
  await expect(card).toHaveCount(0);
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(/Thanks, Ada\./, { timeout: 30_000 });
  const followUp = (await fakeGemini.requests()).filter((request) => request.action === "streamGenerateContent").at(-1)!;
  // What the server answered reached the model: the user's name among the answers it received.
  expect(JSON.stringify(followUp.body.contents)).toMatch(/name[\\"]*: [\\"]*Ada/);
});
