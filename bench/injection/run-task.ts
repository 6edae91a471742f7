/**
 * One eval run: a fresh SAGE (the real app, in-process, on a temporary SQLite store) over the eval's workspace, with
 * the scripted model; the turns are posted as the chat posts them and every approval card is answered as it comes
 * (Decline for an attack, Approve for a benign task, with the second confirmation a content-derived card needs).
 */
import { cpSync } from "node:fs";
import { makeTempDir } from "../../packages/testkit/src/temp-dir.ts";
import { createTestApp, type TestApp } from "../../apps/server/src/test/test-app.ts";
import { knowledgeClient } from "../../apps/server/src/test/knowledge-client.ts";
import { turnEvents } from "../../apps/server/src/test/turn-events.ts";
import type { ObeyingModel, TurnScript } from "./obeying-model.ts";
import { DOCUMENTS, EVENTS, MAILS, MEMORIES, NOW, USER_ADDRESS, WEB_PAGE, type Slot, type WorldDocument, type WorldEvent, type WorldMail } from "./world.ts";

export interface Card {
  callId: string;
  name: string;
  risk?: string;
  reason?: string;
  kind?: string;
}

export interface TurnRecord {
  calls: { id: string; name: string; args: Record<string, unknown>; result?: unknown; card?: Card }[];
}

export interface RunResult {
  turns: TurnRecord[];
  memories: string[];
  reminders: Record<string, unknown>[];
  missing: string[];
  goalImpossible: boolean;
}

/** A mailbox that is not there (port 9): SAGE knows the account, the mail is seeded as its sync leaves it. */
const nowhere = { host: "127.0.0.1", port: 9, secure: false, user: USER_ADDRESS, password: "eval-password" };

type Api = (method: "GET" | "POST" | "PUT", url: string, payload?: object) => ReturnType<TestApp["app"]["inject"]>;
const apiOf =
  (t: TestApp, cookie: string): Api =>
  (method, url, payload) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

/** The workspace's items that can hold an injection are seeded per run; the rest once, in a template data folder. */
const inSlot = (item: { slot?: Slot }) => item.slot !== undefined;

async function seedMail(t: TestApp, cookie: string, accountId: number, message: WorldMail, body: string) {
  const eml = `From: ${message.from}\r\nTo: ${message.to}\r\nSubject: ${message.subject}\r\nDate: ${new Date(message.date).toUTCString()}\r\n\r\n${body}\r\n`;
  const upload = await knowledgeClient(t, cookie).upload({}, { filename: `${message.subject}.eml`, content: Buffer.from(eml), type: "message/rfc822" });
  if (upload.statusCode !== 200) throw new Error(`mail upload: ${upload.statusCode} ${upload.body}`);
  await t.store.db
    .insertInto("mailMessages")
    .values({
      accountId,
      userId: 3,
      folder: message.folder,
      uid: MAILS.indexOf(message) + 1,
      messageId: `<m${MAILS.indexOf(message) + 1}@eval.example>`,
      subject: message.subject,
      fromAddress: message.from,
      toAddress: message.to,
      date: message.date,
      itemId: upload.json().file.id,
    })
    .execute();
}

async function seedDocument(t: TestApp, cookie: string, document: WorldDocument, text: string) {
  const upload = await knowledgeClient(t, cookie).upload({}, { filename: document.name, content: Buffer.from(text), type: "text/plain" });
  if (upload.statusCode !== 200) throw new Error(`document upload: ${upload.statusCode} ${upload.body}`);
}

async function seedEvent(t: TestApp, accountId: number, event: WorldEvent, description: string) {
  const object = await t.store.db
    .insertInto("calendarObjects")
    .values({ accountId, href: `/calendars/exec/${event.title}.ics`, calendarUrl: null, etag: null, ics: "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const row = {
    accountId,
    userId: 3,
    objectId: object.id,
    uid: `${event.title}@eval.example`,
    recurrenceId: null,
    title: event.title,
    location: event.location,
    startAt: event.start,
    endAt: event.end,
    allDay: 0,
    timeZone: "Europe/Zurich",
    attendees: JSON.stringify(event.attendees),
    busy: 1,
  };
  // Events carry their description since issue 47; an older store has no column for it (and never showed it).
  try {
    await t.store.db
      .insertInto("calendarEvents")
      .values({ ...row, description } as typeof row)
      .execute();
  } catch {
    await t.store.db.insertInto("calendarEvents").values(row).execute();
  }
}

/** Accounts, memories, and the items no injection goes into: once. */
async function seedTemplate(t: TestApp, cookie: string) {
  const api = apiOf(t, cookie);
  for (const content of MEMORIES) await api("POST", "/api/memories", { content });
  const mail = await api("POST", "/api/accounts", { kind: "mail", name: "Work mail", imap: nowhere, smtp: nowhere });
  if (mail.statusCode !== 201) throw new Error(`mail account: ${mail.statusCode} ${mail.body}`);
  const calendar = await api("POST", "/api/accounts", {
    kind: "calendar",
    name: "Work calendar",
    caldav: { url: "http://127.0.0.1:9/calendars/exec/", user: USER_ADDRESS, password: "eval-password" },
  });
  if (calendar.statusCode !== 201) throw new Error(`calendar account: ${calendar.statusCode} ${calendar.body}`);
  await t.jobs.idle();
  const accounts = { mail: mail.json().id as number, calendar: calendar.json().id as number };
  for (const message of MAILS.filter((item) => !inSlot(item))) await seedMail(t, cookie, accounts.mail, message, message.body);
  for (const document of DOCUMENTS.filter((item) => !inSlot(item))) await seedDocument(t, cookie, document, document.text);
  await api("POST", "/api/process-note", { name: "To do", type: "note", content: "Renew the parking permit.", userId: 3, conversationId: 0, parentId: 0 });
  for (const event of EVENTS.filter((item) => !inSlot(item))) await seedEvent(t, accounts.calendar, event, event.description);
  await t.jobs.idle();
  return accounts;
}

/** The items an injection can go into, with it in the run's slot. */
async function seedSlots(t: TestApp, cookie: string, accounts: { mail: number; calendar: number }, injection: { slot: Slot; text: string } | null) {
  const withSlot = (text: string, slot: Slot | undefined) => (injection && slot === injection.slot ? `${text}${injection.text}` : text);
  for (const message of MAILS.filter(inSlot)) await seedMail(t, cookie, accounts.mail, message, withSlot(message.body, message.slot));
  for (const document of DOCUMENTS.filter(inSlot)) await seedDocument(t, cookie, document, withSlot(document.text, document.slot));
  for (const event of EVENTS.filter(inSlot)) await seedEvent(t, accounts.calendar, event, withSlot(event.description, event.slot));
  await t.jobs.idle();
}

const appOptions = (model: ObeyingModel, mcpConfig: string, beforeOpen?: (dataDir: string) => void) => ({
  env: { SAGE_EMBEDDER: "none", SAGE_MCP_CONFIG: mcpConfig, SAGE_TIME_ZONE: "Europe/Zurich", SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1" },
  providers: () => ({
    llm: model.provider,
    webSearch: { kind: "gemini" as const },
    embedder: null,
    describe: () => ({ llm: "scripted", webSearch: "scripted", embedder: "none" }),
  }),
  now: () => NOW,
  ...(beforeOpen ? { beforeOpen } : {}),
});

/** A data folder with the workspace seeded but for its slots, copied into each run's fresh app. */
export async function makeTemplate(model: ObeyingModel, mcpConfig: string) {
  const folder = makeTempDir();
  const t = await createTestApp(appOptions(model, mcpConfig));
  try {
    const accounts = await seedTemplate(t, await t.login());
    // The database with its write-ahead log: a copy opens as the template's state.
    cpSync(t.config.dataDir, folder.dir, { recursive: true });
    return { dir: folder.dir, accounts, remove: folder.remove };
  } finally {
    await t.close();
  }
}

export type Template = Awaited<ReturnType<typeof makeTemplate>>;

/** Runs the turns in one conversation of a fresh app; `approve` answers each card. */
export async function runTask(options: {
  model: ObeyingModel;
  mcpConfig: string;
  template: Template;
  injection: { slot: Slot; text: string } | null;
  turns: { prompt: string; script: TurnScript }[];
  approve: boolean;
}): Promise<RunResult> {
  const { model } = options;
  model.reset();
  if (options.injection?.slot === "web") model.setWebText(`${WEB_PAGE.text}${options.injection.text}`);
  // A copy of the template's data folder.
  const t = await createTestApp(appOptions(model, options.mcpConfig, (dataDir) => cpSync(options.template.dir, dataDir, { recursive: true })));
  try {
    const cookie = await t.login();
    const api = apiOf(t, cookie);
    const t0 = Date.now();
    await seedSlots(t, cookie, options.template.accounts, options.injection);
    if (process.env.EVAL_TIMING) console.error("seed", Date.now() - t0);
    for (let i = 0; i < 200 && (await api("GET", "/api/tools")).json().servers?.[0]?.state !== "connected"; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (process.env.EVAL_TIMING) console.error("mcp", Date.now() - t0);
    const conversationId = (await api("POST", "/api/conversations", { name: "Eval" })).json().id as number;
    const turns: TurnRecord[] = [];
    for (const { prompt, script } of options.turns) {
      model.script(script);
      let done = false;
      const answered = new Set<string>();
      const posted = api("POST", `/api/conversations/${conversationId}/turn`, { content: prompt }).finally(() => (done = true));
      while (!done) {
        const { approvals } = (await api("GET", "/api/approvals")).json() as { approvals: { approvalId: string; risk?: string }[] };
        for (const approval of approvals) {
          if (answered.has(approval.approvalId)) continue;
          answered.add(approval.approvalId);
          const confirm = approval.risk === "content-derived" ? { confirm: "content-derived" } : {};
          await api("POST", `/api/approvals/${approval.approvalId}`, { approved: options.approve, ...(options.approve ? confirm : {}) });
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const events = turnEvents((await posted).body);
      const record: TurnRecord = { calls: [] };
      for (const [event, data] of events) {
        if (event === "tool-call") record.calls.push({ id: data.id, name: data.name, args: data.args });
        else if (event === "approval-required") {
          const last = record.calls.at(-1)!;
          last.card = { callId: last.id, name: data.name, risk: data.risk, reason: data.reason, kind: data.kind };
        } else if (event === "tool-result") record.calls.at(-1)!.result = data.result;
      }
      turns.push(record);
    }
    const memories = ((await api("GET", "/api/memories")).json() as { content: string }[]).map((memory) => memory.content);
    const reminders = (await api("GET", "/api/reminders")).json() as Record<string, unknown>[];
    return { turns, memories, reminders, missing: model.missing(), goalImpossible: model.goalImpossible() };
  } finally {
    await t.close();
  }
}
