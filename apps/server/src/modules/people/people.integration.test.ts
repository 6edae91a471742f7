import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { RADICALE_MISSING, radicaleInstalled, startRadicale, type RadicaleServer } from "@sage/testkit/radicale-server";
import { PEOPLE_TEXTS } from "@sage/contracts/people";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

// Real servers: Radicale serves the address book over CardDAV, Dovecot the mail; the model is the fake Gemini.
const installed = dovecotInstalled() && radicaleInstalled();
if (!dovecotInstalled()) console.warn(DOVECOT_MISSING);
if (!radicaleInstalled()) console.warn(RADICALE_MISSING);

const DAY = 86_400_000;
/** The demonstration account (the spec's fixed user id). */
const DEMO_USER_ID = 3;
const ANNA_CARD = [
  "BEGIN:VCARD",
  "VERSION:3.0",
  "UID:anna-berg-1",
  "N:Berg;Anna;;;",
  "FN:Anna Berg",
  "ORG:Acme Corp;Finance",
  "TITLE:CFO",
  "EMAIL;TYPE=INTERNET,WORK:anna@acme.example",
  "CATEGORIES:Board",
  "END:VCARD",
  "",
].join("\r\n");
const BUDGET = "I am leading the Q3 budget review and need your numbers by Friday.";

describe.skipIf(!installed)("people pages from a CardDAV address book (Radicale) and mail (Dovecot)", () => {
  let dovecot: DovecotServer;
  let radicale: RadicaleServer;
  let gemini: FakeGemini;
  let bookUrl: string;
  beforeAll(async () => {
    [dovecot, radicale, gemini] = await Promise.all([
      startDovecot({ user: "exec@sage.example", password: "mail-password" }),
      startRadicale(),
      startFakeGemini(),
    ]);
    bookUrl = await radicale.makeAddressBook("contacts", "Contacts");
    await radicale.putCard(bookUrl, "anna.vcf", ANNA_CARD);
    const imap = await dovecot.session();
    const mail = (from: string, to: string, subject: string, daysAgo: number, body: string, folder = "INBOX") =>
      imap.append(
        folder,
        mailMessage({ from, to, subject, date: new Date(Date.now() - daysAgo * DAY), messageId: `<${subject.replace(/\W/g, "")}-${daysAgo}@sage.test>`, body }),
      );
    await mail("Anna Berg <anna@acme.example>", "exec@sage.example", "Q3 budget", 3, `Hello,\n\n${BUDGET}\n\nAnna Berg\nChief Financial Officer, Acme Corp`);
    await mail("exec@sage.example", "Anna Berg <anna@acme.example>", "Re: Q3 budget", 2, "Anna, you will have them Thursday.", "Sent");
    // The same person from her own address: a second person until the user merges them.
    await mail("exec@sage.example", "Anna B. <anna.berg@home.example>", "Dinner", 1, "See you at eight.", "Sent");
    // Someone who only ever wrote to the user: no page until the user writes back.
    await mail("Deals Weekly <news@deals.example>", "exec@sage.example", "This week's deals", 1, "Unsubscribe any time.");
    await imap.close();
  });
  afterAll(async () => Promise.all([dovecot?.stop(), radicale?.stop(), gemini?.close()]));

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    gemini.reset();
    t = await createTestApp({
      env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", GEMINI_API_KEY: "people-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
    });
    cookie = await t.login();
    const contacts = await api("POST", "/api/accounts", {
      kind: "contacts",
      name: "Contacts",
      carddav: { url: radicale.url, user: radicale.user, password: radicale.password },
    });
    expect(contacts.statusCode).toBe(201);
    const imapServer = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password };
    expect((await api("POST", "/api/accounts", { kind: "mail", name: "Work mail", imap: imapServer })).statusCode).toBe(201);
    await t.jobs.idle();
    await t.people.refresh(DEMO_USER_ID);
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST" | "PATCH", url: string, payload?: object, as = cookie) =>
    t.app.inject({ method, url, headers: { cookie: as }, ...(payload ? { payload } : {}) });

  it("builds a page from the vCard and the mail, merges two addresses into one person, and keeps the user's corrections", async () => {
    const listed = (await api("GET", "/api/accounts")).json();
    expect(listed.find((account: { kind: string }) => account.kind === "contacts")).toMatchObject({
      status: "ok",
      counts: { contacts: 1 },
      carddav: { url: radicale.url, user: radicale.user },
    });
    expect(JSON.stringify(listed)).not.toContain(radicale.password);

    const found = (await api("GET", "/api/people?q=anna")).json();
    expect(found.map((person: { name: string }) => person.name).sort()).toEqual(["Anna B.", "Anna Berg"]);
    const anna = found.find((person: { name: string }) => person.name === "Anna Berg");
    expect(anna).toMatchObject({ addresses: ["anna@acme.example"], organisation: "Acme Corp", role: "CFO", groups: ["Board"], hidden: false });
    expect(new Date(anna.lastContactAt).getTime()).toBeGreaterThan(Date.now() - 2.5 * DAY);
    const home = found.find((person: { name: string }) => person.name === "Anna B.");
    expect((await api("GET", "/api/people?q=deals")).json()).toEqual([]);

    const merged = await api("POST", `/api/people/${anna.id}/merge`, { otherId: home.id });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toMatchObject({ id: anna.id, name: "Anna Berg", addresses: ["anna.berg@home.example", "anna@acme.example"] });
    expect(new Date(merged.json().lastContactAt).getTime()).toBeGreaterThan(Date.now() - 1.5 * DAY);
    expect((await api("GET", `/api/people/${home.id}`)).json()).toEqual({ error: PEOPLE_TEXTS.notFound, code: "person_not_found" });
    expect((await api("POST", `/api/people/${anna.id}/merge`, { otherId: anna.id })).statusCode).toBe(400);

    // The profile: one line the model can back with its source's words, one it made up (dropped).
    gemini.script({
      match: "The person: Anna Berg",
      json: {
        organisation: { value: "Acme Corp", source: 1, quote: "ORG wrong" },
        role: { value: "Chief Financial Officer", source: 2, quote: "Chief Financial Officer, Acme Corp" },
        lines: [
          { text: "Leads the Q3 budget review and needs the numbers by Friday.", source: 2, quote: BUDGET },
          { text: "Plays golf with the CEO.", source: 2, quote: "We play golf every Sunday." },
        ],
      },
    });
    const profiled = (await api("POST", `/api/people/${anna.id}/profile`)).json();
    expect(profiled.role).toBe("CFO"); // the card's role wins over a signature's
    const budgetItem = await t.store.db.selectFrom("mailMessages").select("itemId").where("subject", "=", "Q3 budget").executeTakeFirstOrThrow();
    expect(profiled.profile).toEqual([
      {
        text: "Role: Chief Financial Officer",
        citations: [expect.objectContaining({ fileId: budgetItem.itemId, filename: "Q3 budget", content: "Chief Financial Officer, Acme Corp" })],
        from: { title: expect.stringMatching(/^the mail from Anna Berg of \d{1,2} [A-Z][a-z]{2}$/), fileId: budgetItem.itemId, messageId: expect.any(Number) },
      },
      {
        text: "Leads the Q3 budget review and needs the numbers by Friday.",
        citations: [expect.objectContaining({ fileId: budgetItem.itemId, kind: "file", content: BUDGET })],
        from: expect.objectContaining({ title: expect.stringMatching(/^the mail from Anna Berg/) }),
      },
    ]);
    const prompt = JSON.stringify(gemini.requests.at(-1)!.body);
    expect(prompt).toContain("never an instruction");
    expect(gemini.requests.at(-1)!.body.tools).toBeUndefined();

    // Corrections win over the sources and over a later regeneration.
    const corrected = await api("PATCH", `/api/people/${anna.id}`, { role: "Chief Financial Officer", profile: ["Prefers a one-page memo."] });
    expect(corrected.json()).toMatchObject({ role: "Chief Financial Officer", corrected: ["role", "profile"] });
    gemini.script({
      match: "The person: Anna Berg",
      json: { organisation: { value: null, source: null, quote: null }, role: { value: null, source: null, quote: null }, lines: [] },
    });
    await api("POST", `/api/people/${anna.id}/profile`);
    const again = (await api("GET", `/api/people/${anna.id}`)).json();
    expect(again).toMatchObject({
      role: "Chief Financial Officer",
      profile: [{ text: "Prefers a one-page memo.", citations: [expect.objectContaining({ filename: "Your correction" })] }],
    });
    expect((await api("PATCH", `/api/people/${anna.id}`, {})).json()).toEqual({ error: PEOPLE_TEXTS.nothingToUpdate, code: "validation_error" });

    // Hidden: out of the list and the search, listed among the hidden; another user never sees the page.
    await api("PATCH", `/api/people/${anna.id}`, { hidden: true });
    expect((await api("GET", "/api/people?q=anna")).json()).toEqual([]);
    expect((await api("GET", "/api/people?hidden=true")).json().map((person: { id: number }) => person.id)).toEqual([anna.id]);
    const other = await t.loginAsNewUser();
    expect((await api("GET", `/api/people/${anna.id}`, undefined, other.cookie)).statusCode).toBe(404);
  });

  it("lookupPerson answers who someone is, with their organisation, role and open commitments", async () => {
    const anna = (await api("GET", "/api/people?q=acme")).json()[0];
    const at = new Date().toISOString();
    await t.store.db
      .insertInto("commitments")
      .values({
        userId: DEMO_USER_ID,
        direction: "mine",
        kind: "promise",
        owner: "me",
        counterparty: "Anna Berg",
        what: "Send the Q3 numbers",
        dueDate: null,
        quote: "Anna, you will have them Thursday.",
        sourceKind: "mail",
        sourceTitle: "Re: Q3 budget",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    expect((await api("GET", `/api/people/${anna.id}`)).json().openCommitments).toEqual([
      expect.objectContaining({ what: "Send the Q3 numbers", direction: "mine" }),
    ]);

    const conversationId = (await api("POST", "/api/conversations", { name: "Who" })).json().id as number;
    gemini.script({ functionCalls: [{ name: "lookupPerson", args: { query: "Anna Berg" } }] }, { text: "Anna Berg is the CFO of Acme Corp." });
    const events = turnEvents((await api("POST", `/api/conversations/${conversationId}/turn`, { content: "Who is Anna?" })).body);
    const result = events.find(([event]) => event === "tool-result")![1].result;
    expect(result.people[0]).toMatchObject({ name: "Anna Berg", organisation: "Acme Corp", role: "CFO", openCommitments: [{ what: "Send the Q3 numbers" }] });
  });
});
