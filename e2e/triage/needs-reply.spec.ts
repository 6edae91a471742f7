import { expect, test, type Page } from "@playwright/test";
import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// Issue 53's browser tests: "Needs your reply" with its draft, and a person page. A real Dovecot holds the mailbox (and
// gets the draft); the fake Gemini sorts and writes the reply. Each test signs in as a new user and connects it.
test.skip(!dovecotInstalled(), DOVECOT_MISSING);

const ME = "exec@example.com";
const PASSWORD = "e2e-triage-password";
const DAY = 86_400_000;

let dovecot: DovecotServer;
test.beforeAll(async () => {
  dovecot = await startDovecot({ user: ME, password: PASSWORD });
  const imap = await dovecot.session();
  const mail = (folder: string, from: string, to: string, subject: string, daysAgo: number, body: string) =>
    imap.append(
      folder,
      mailMessage({ from, to, subject, date: new Date(Date.now() - daysAgo * DAY), messageId: `<${subject.replace(/\W/g, "")}@e2e.test>`, body }),
    );
  // The user wrote to Anna before (so her mail gets a draft ahead), in their own style.
  await mail("Sent", ME, "Anna Berg <anna@acme.example>", "Dinner plans", 9, "Hi Anna,\n\nThursday at eight works for me.\n\nCheers,\nJan");
  await mail("Sent", ME, "Ravi Patel <ravi@psc.example>", "Lunch", 8, "Hi Ravi,\n\nGreat to see you today.\n\nCheers,\nJan");
  await mail("Sent", ME, "Mia Chen <mia@psc.example>", "Thanks", 7, "Hi Mia,\n\nThank you for the notes.\n\nCheers,\nJan");
  await mail(
    "INBOX",
    "Anna Berg <anna@acme.example>",
    ME,
    "Q3 budget numbers",
    2,
    "Hello Jan,\n\nCould you send me your Q3 numbers before the board meeting?\n\nAnna",
  );
  await imap.close();
});
test.afterAll(async () => dovecot?.stop());

async function connectMailbox(page: Page) {
  const connected = await page.request.post("/api/accounts", {
    data: {
      kind: "mail",
      name: "Work mail",
      folders: ["INBOX", "Sent"],
      imap: { host: dovecot.host, port: dovecot.port, secure: false, user: ME, password: PASSWORD },
    },
  });
  expect(connected.status(), await connected.text()).toBe(201);
}

test("Needs your reply on the Today panel shows Anna's mail, why, and the draft reply waiting in Drafts", async ({ page }) => {
  await fakeGemini.reset();
  await fakeGemini.script(
    { match: "Dinner plans", json: { asks: false, what: null } },
    { match: "Great to see you today", json: { asks: false, what: null } },
    { match: "Thank you for the notes", json: { asks: false, what: null } },
    {
      match: "Q3 budget numbers",
      json: {
        label: "needs-reply",
        reason: "Anna asks for your Q3 numbers before the board meeting.",
        urgent: false,
        urgentReason: null,
        sentToMany: false,
        fromMachine: false,
      },
    },
    { match: "Q3 budget numbers", text: "You will have the Q3 numbers on Thursday." },
  );
  await signIn(page);
  await connectMailbox(page);
  // A sync's round waits until the mail it fetched has been read; asking for sorting again queues the next round.
  await expect
    .poll(
      async () => {
        await page.request.put("/api/triage/settings", { data: { enabled: true } });
        return (await (await page.request.get("/api/triage?label=needs-reply")).json()) as { subject: string; draft?: { folder: string } }[];
      },
      { message: "Anna's mail is sorted and its reply drafted", intervals: [1000] },
    )
    .toMatchObject([{ subject: "Q3 budget numbers", draft: { folder: "Drafts" } }]);

  await page.goto("/conversations");
  const needsReply = page.getByTestId("today-panel").getByRole("region", { name: "Needs your reply (1)" });
  const row = needsReply.getByRole("listitem");
  await expect(row).toContainText("Anna Berg · Q3 budget numbers · 2 days");
  await expect(row).toContainText("Anna asks for your Q3 numbers before the board meeting. Draft reply in Drafts.");

  // The draft is in the mailbox's Drafts folder, in the user's voice, and was never sent.
  const imap = await dovecot.session();
  try {
    const draft = (await imap.messages("Drafts")).find((message) => message.raw.includes("Subject: Re: Q3 budget numbers"));
    expect(draft?.flags).toContain("\\Draft");
    expect(draft?.raw).toMatch(/Hi Anna,\r?\n\r?\nYou will have the Q3 numbers on Thursday\.\r?\n\r?\nCheers,\r?\nJan/);
  } finally {
    await imap.close();
  }
});

test("a person page: Anna, from the mail exchanged with her, corrected by the user", async ({ page }) => {
  await signIn(page);
  // This user's mail is not sorted (nothing here asks the model); their people come from the mail exchanged.
  await page.request.put("/api/triage/settings", { data: { enabled: false } });
  await connectMailbox(page);
  await expect
    .poll(async () => JSON.stringify(await (await page.request.get("/api/people?q=Anna")).json()), { message: "Anna's page is built", intervals: [1000] })
    .toContain("anna@acme.example");
  await page.goto("/settings?section=people");
  await page.getByRole("searchbox", { name: "Search people" }).fill("Anna");
  await page
    .getByRole("list", { name: "People" })
    .getByRole("button", { name: /Anna Berg/ })
    .click();
  const person = page.getByTestId("person-page");
  await expect(person.getByRole("heading", { level: 2 })).toHaveText("Anna Berg");
  await expect(person).toContainText("anna@acme.example");

  await person.getByRole("button", { name: "Correct" }).click();
  const form = person.getByRole("form", { name: "Correct Anna Berg" });
  await form.getByLabel("Organisation").fill("Acme");
  await form.getByLabel("Role").fill("CFO");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(person.getByText("CFO, Acme")).toBeVisible();
  // The correction is kept: the page opened again says the same.
  await page.reload();
  await expect(page.getByTestId("person-page").getByText("CFO, Acme")).toBeVisible();
});
