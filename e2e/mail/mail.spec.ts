import { expect, test, type Page } from "@playwright/test";
import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startSmtp } from "../../apps/server/src/test/smtp-test-server.ts";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";
import { send } from "../support/chat.ts";

// A real Dovecot (its INBOX written as a Maildir before it starts) and a real SMTP server on loopback; the e2e server
// allows private addresses (playwright.config.ts). The fake Gemini's queue is shared: one test, step by step.
test.describe.configure({ mode: "serial" });
test.skip(!dovecotInstalled(), DOVECOT_MISSING);

const MESSAGES = 200;
const PASSWORD = "e2e-app-password";
const DAY = 86_400_000;

function* inbox() {
  for (let n = 1; n < MESSAGES; n++) {
    const received = new Date(Date.now() - (n + 2) * DAY);
    yield {
      received,
      raw: mailMessage({
        from: `Team ${n % 7} <team${n % 7}@example.com>`,
        to: "exec@example.com",
        subject: `Weekly update ${n}`,
        date: received,
        messageId: `<weekly-${n}@example.com>`,
        body: `Week ${n}: the harbour works go on as planned.`,
      }),
    };
  }
  const received = new Date(Date.now() - DAY);
  yield {
    received,
    raw: mailMessage({
      from: "Anna Berg <anna@example.com>",
      to: "exec@example.com",
      subject: "Contract with Nordlicht",
      date: received,
      messageId: "<nordlicht@example.com>",
      body: "Nordlicht asks for your signature on the supply contract before the 30th.",
    }),
  };
}

let dovecot: DovecotServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
test.beforeAll(async () => {
  [dovecot, smtp] = await Promise.all([
    startDovecot({ user: "exec@example.com", password: PASSWORD, inbox: inbox() }),
    startSmtp("exec@example.com", PASSWORD),
  ]);
});
test.afterAll(async () => Promise.all([dovecot?.stop(), smtp?.close()]));

const aiMessages = (page: Page) => page.locator('[data-testid="chat-message"][data-role="ai"]');

test("connect a mail account, watch it sync, ask about a mail and open its citation, draft, and approve a send", async ({ page }) => {
  test.setTimeout(180_000);
  await fakeGemini.reset();
  await signIn(page);

  // Connect: the form as a user fills it, SMTP on the same login.
  await page.goto("/settings?section=accounts");
  const form = page.getByRole("form", { name: "Connect a mail account" });
  await form.getByLabel("Account name").fill("Work mail");
  await form.getByLabel("User name (e-mail address)").fill("exec@example.com");
  await form.getByLabel("IMAP server").fill(dovecot.host);
  await form.getByLabel("IMAP port").fill(String(dovecot.port));
  await form.getByLabel("Password or app password").fill(PASSWORD);
  await form.getByLabel("Secure connection (TLS)").uncheck();
  await form.getByLabel("SMTP server, for sending (optional)").fill("127.0.0.1");
  await form.getByLabel("SMTP port").fill(String(smtp.port));
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.getByRole("status")).toHaveText("Receiving works. Sending works.");
  await form.getByRole("button", { name: "Connect", exact: true }).click();

  // The sync's progress, then its end.
  const card = page.getByTestId("mail-account").filter({ hasText: "Work mail" });
  await expect(card.getByRole("status")).toHaveText(new RegExp(`^(Syncing|Synced [\\d,]+ of ${MESSAGES} messages)$`));
  await expect(card.getByRole("status")).toHaveText("Up to date", { timeout: 120_000 });
  await expect(card).toContainText(`exec@example.com on ${dovecot.host} · ${MESSAGES} messages`);
  // "Up to date" means every message is fetched; each is then read into the knowledge base in the background (beside
  // the other background jobs), so on a loaded machine the newest can take a while to become searchable.
  await expect
    .poll(
      async () => JSON.stringify(await (await page.request.post("/api/search", { data: { query: "Nordlicht supply contract signature", limit: 5 } })).json()),
      {
        timeout: 120_000,
        intervals: [1000],
      },
    )
    .toContain("Contract with Nordlicht");

  // Ask about a mail: the answer cites it, and the citation opens the message with its headers.
  const conversation = (await (await page.request.post("/api/conversations", { data: { name: "Mail" } })).json()) as { id: number };
  await page.goto(`/conversations/${conversation.id}`);
  await fakeGemini.script(
    { functionCalls: [{ name: "searchMail", args: { query: "Nordlicht contract signature", from: "anna" } }] },
    { text: "Anna asks you to sign the Nordlicht supply contract before the 30th [1]." },
  );
  await send(page, "What did Anna ask me about Nordlicht?");
  const answer = aiMessages(page).last();
  await expect(answer).toContainText("before the 30th [1].", { timeout: 30_000 });
  await answer.getByRole("button", { name: /^Source 1: .*Contract with Nordlicht/ }).click();
  const preview = page.getByRole("dialog", { name: /Contract with Nordlicht/ });
  await expect(preview).toBeVisible();
  const headers = preview.getByTestId("mail-headers");
  await expect(headers).toContainText("FromAnna Berg <anna@example.com>");
  await expect(headers).toContainText("SubjectContract with Nordlicht");
  await expect(preview.getByTestId("preview-document-text")).toContainText("signature on the supply contract before the 30th");
  await page.keyboard.press("Escape");

  // A draft to the sender the user named asks nothing and says where it is (issue 47: only a recipient the user never
  // chose needs a card).
  await fakeGemini.script(
    { functionCalls: [{ name: "draftEmail", args: { to: ["anna@example.com"], subject: "Re: Contract with Nordlicht", body: "Draft: I will sign." } }] },
    { text: "The draft is in your Drafts folder." },
  );
  await send(page, "Draft a reply to Anna");
  await expect(page.getByTestId("draft-saved")).toContainText("Draft saved, not sent: Re: Contract with Nordlicht to anna@example.com.", { timeout: 30_000 });
  await expect(page.getByTestId("draft-saved")).toContainText("It is in the Drafts folder of Work mail.");
  const session = await dovecot.session();
  expect((await session.messages("Drafts")).map((draft) => draft.flags.includes("\\Draft"))).toEqual([true]);
  await session.close();

  // A send waits for Approve, then is delivered.
  await fakeGemini.script(
    {
      functionCalls: [
        { name: "sendEmail", args: { to: ["anna@example.com"], subject: "Re: Contract with Nordlicht", body: "Anna, I will sign it tomorrow." } },
      ],
    },
    { text: "Sent." },
  );
  await send(page, "Tell Anna I will sign it tomorrow");
  const approval = page.getByTestId("approval-card");
  await expect(approval).toBeVisible({ timeout: 30_000 });
  // The user's own request: the calm card, naming the person as the mail did, with no second confirmation.
  await expect(approval).toHaveAttribute("data-risk", "asked");
  await expect(approval.getByTestId("approval-reason")).toHaveText("As you asked: to Anna Berg <anna@example.com>.");
  await expect(approval).toContainText("Anna, I will sign it tomorrow.");
  expect(smtp.received).toEqual([]);
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(aiMessages(page).last()).toHaveText(/Sent\./, { timeout: 30_000 });
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.to).toEqual(["anna@example.com"]);
  expect(smtp.received[0]!.data).toContain("Anna, I will sign it tomorrow.");
});
