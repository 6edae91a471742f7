import { expect, test, type Locator, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// The fake Gemini's reply queue is shared: these tests run one after another.
test.describe.configure({ mode: "serial" });

/**
 * XSS payloads rendered by real Chromium wherever model or stored text becomes markdown: saved chat messages,
 * a live streamed reply, and the two test pages. Every payload would set window.__xss or open a dialog if it
 * ran; each carries a visible marker so the test knows it was rendered, not silently dropped.
 */
const PAYLOADS: Array<{ class: string; text: string }> = [
  // javascript: links in several spellings
  { class: "javascript: link", text: "[M01 link](javascript:window.__xss=1)" },
  { class: "javascript: link", text: "[M02 link](JaVaScRiPt:window.__xss=2)" },
  { class: "javascript: link", text: "[M03 link](&#106;avascript:window.__xss=3)" },
  { class: "javascript: link", text: "[M04 link](&#x6A;&#x61;vascript:window.__xss=4)" },
  { class: "javascript: link", text: "[M05 link](javascript&colon;window.__xss=5)" },
  { class: "javascript: link", text: "[M06 link](<javascript:window.__xss=6>)" },
  { class: "javascript: link", text: "[M07 link]( javascript:alert(7))" },
  { class: "javascript: link", text: "M08 autolink <javascript:alert(8)>" },
  { class: "javascript: link", text: "[M09 reference][evil]\n\n[evil]: javascript:window.__xss=9" },
  { class: "javascript: link", text: "[M10 link](%6Aavascript:alert(10))" },
  { class: "javascript: link", text: "[M11 link](java%0ascript:alert(11))" },
  // data: and vbscript:
  { class: "data: link", text: "[M12 link](data:text/html;base64,PHNjcmlwdD53aW5kb3cub3BlbmVyLl9feHNzPTEyPC9zY3JpcHQ+)" },
  { class: "data: link", text: "[M13 link](DATA:text/html,<script>alert(13)</script>)" },
  { class: "data: link", text: "[M14 link](&#100;ata:text/html,alert(14))" },
  { class: "vbscript: link", text: "[M15 link](vbscript:msgbox(15))" },
  { class: "vbscript: link", text: "[M16 link](VbScRiPt:msgbox(16))" },
  // raw HTML
  { class: "raw HTML", text: "M17 <script>window.__xss=17</script>" },
  { class: "raw HTML", text: 'M18 <img src=x onerror="window.__xss=18">' },
  { class: "raw HTML", text: 'M19 <svg onload="window.__xss=19"></svg>' },
  { class: "raw HTML", text: 'M20 <iframe src="javascript:parent.__xss=20"></iframe>' },
  { class: "raw HTML", text: 'M21 <iframe srcdoc="<script>parent.__xss=21</script>"></iframe>' },
  { class: "raw HTML", text: 'M22 <a href="javascript:window.__xss=22">raw anchor</a>' },
  { class: "raw HTML", text: "M23 <math><mtext><table><mglyph><style><img src=x onerror=window.__xss=23></style></mglyph></table></mtext></math>" },
  { class: "raw HTML", text: "M24 before a block\n\n<div>\n<img src=x onerror=alert(24)>\n</div>" },
  { class: "raw HTML", text: 'M25 <object data="javascript:alert(25)"></object><embed src="javascript:alert(25)">' },
  { class: "raw HTML", text: 'M26 <form action="javascript:alert(26)"><button>go</button></form>' },
  // event handlers
  { class: "event handler", text: 'M27 <details open ontoggle="window.__xss=27">x</details>' },
  { class: "event handler", text: 'M28 <body onload="window.__xss=28">' },
  { class: "event handler", text: 'M29 <a href="#" onclick="window.__xss=29" onmouseover="window.__xss=29">hover</a>' },
  { class: "event handler", text: 'M30 <input autofocus onfocus="window.__xss=30">' },
  { class: "event handler", text: 'M31 <video><source onerror="window.__xss=31"></video>' },
  // markdown images
  { class: "image", text: "![M32 image](javascript:window.__xss=32)" },
  { class: "image", text: "![M33 image](x onerror=alert(33))" },
  { class: "image", text: '![M34 image](https://127.0.0.1:1/x.png "title\\" onerror=\\"alert(34)")' },
  { class: "image", text: "[![M35 image](x)](javascript:alert(35))" },
  // code stays code
  { class: "code", text: "`M36 <img src=x onerror=alert(36)>`" },
  { class: "code", text: "```html\nM37 <script>window.__xss=37</script>\n```" },
];
const MARKERS = PAYLOADS.map((_, index) => `M${String(index + 1).padStart(2, "0")}`);

const dialogs: string[] = [];

test.beforeEach(async ({ page }) => {
  dialogs.length = 0;
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await fakeGemini.reset();
  await login(page);
});

/** Nothing ran, no dangerous element or attribute made it into the DOM, and only safe links remain. */
async function expectInert(page: Page, container: Locator, markers: string[]) {
  for (const marker of markers) await expect(container.filter({ hasText: marker }).first()).toBeVisible();
  const found = await container.evaluateAll((roots) =>
    roots.flatMap((root) => {
      const problems: string[] = [];
      for (const element of root.querySelectorAll("*")) {
        const tag = element.tagName.toLowerCase();
        if (["script", "iframe", "object", "embed", "svg", "math", "form", "input", "img", "video", "source", "details", "style"].includes(tag))
          problems.push(`<${tag}>`);
        for (const attribute of element.getAttributeNames()) {
          if (attribute.startsWith("on") || attribute === "srcdoc") problems.push(`${tag}[${attribute}]`);
        }
        for (const attribute of ["href", "src", "action", "data", "formaction"]) {
          const value = element.getAttribute(attribute);
          if (value !== null && !/^(https?|mailto|irc|ircs|xmpp):/i.test(value.trim())) problems.push(`${tag}[${attribute}=${value}]`);
        }
      }
      return problems;
    }),
  );
  expect(found).toEqual([]);
  // With no element left that could run something (above), nothing can fire later: no pause for late handlers.
  // What loads the page started (a failed image would have fired onerror) has ended.
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
}

test("saved chat messages render every payload inert", async ({ page }) => {
  // Sixty messages saved one by one, then each marker looked for: slow on a loaded two-core machine.
  const conversation = await (await page.request.post("/api/conversations", { data: { name: `XSS ${Date.now()}` } })).json();
  for (const payload of PAYLOADS) {
    const saved = await page.request.post(`/api/conversations/${conversation.id}/messages`, { data: { role: "model", content: payload.text } });
    expect(saved.status()).toBeLessThan(300);
  }
  await page.goto(`/conversations/${conversation.id}`);
  const messages = page.locator('[data-testid="chat-message"][data-role="ai"]');
  await expect(messages).toHaveCount(PAYLOADS.length);
  // What the messages say (SAGE's own buttons under them draw icons, which are not the payloads').
  await expectInert(page, messages.getByTestId("message-body"), MARKERS);
});

test("a streamed model reply with every payload renders inert", async ({ page }) => {
  const conversation = await (await page.request.post("/api/conversations", { data: { name: `XSS live ${Date.now()}` } })).json();
  const text = PAYLOADS.map((payload) => payload.text).join("\n\n");
  await fakeGemini.script({ text, chunks: text.match(/[\s\S]{1,40}/g)! });
  await page.goto(`/conversations/${conversation.id}`);
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill("Show me the payloads");
  await input.press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expectInert(page, page.locator('[data-testid="chat-message"][data-role="ai"]').getByTestId("message-body"), MARKERS);
});

test("the /test-gemini response renders every payload inert", async ({ page }) => {
  await fakeGemini.script({ text: PAYLOADS.map((payload) => payload.text).join("\n\n") });
  await page.goto("/test-gemini");
  await page.getByRole("textbox", { name: "Question" }).fill("What are the payloads?");
  await page.getByRole("button", { name: "Search" }).click();
  await expectInert(page, page.getByTestId("test-gemini-response"), MARKERS);
});

test("the /web-search-test response renders every payload inert", async ({ page }) => {
  await fakeGemini.script({
    text: PAYLOADS.map((payload) => payload.text).join("\n\n"),
    sources: [{ title: "M99 <img src=x onerror=alert(99)>", uri: "javascript:alert(99)" }],
  });
  await page.goto("/web-search-test");
  await page.getByRole("textbox", { name: "Web search query" }).fill("payloads");
  await page.getByRole("button", { name: "Search" }).click();
  await expectInert(page, page.getByTestId("web-search-response"), MARKERS);
});

test.afterAll(() => {
  const perClass: Record<string, number> = {};
  for (const payload of PAYLOADS) perClass[payload.class] = (perClass[payload.class] ?? 0) + 1;
  console.log(`markdown XSS payloads per class: ${JSON.stringify(perClass)}; ${PAYLOADS.length} payloads x 4 surfaces`);
});
