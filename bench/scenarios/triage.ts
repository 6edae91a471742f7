import { convertEml } from "../../apps/server/src/documents/converters/convert-eml.ts";
import { chunkSections } from "../../apps/server/src/documents/chunker.ts";
import { createTestApp } from "../../apps/server/src/test/test-app.ts";
import { startFakeGeminiProcess } from "../lib/fake-gemini-process.mjs";
import { figure, round } from "../lib/figure.mjs";
import { mailbox, mailIndexFloorMs } from "./mail-sync.mjs";

const ME = "exec@example.com";
/** As many requests at once as a sorting round sends (triage's AT_ONCE). */
const AT_ONCE = 8;

/**
 * The time to send `count` copies of one request (`fetch`, `AT_ONCE` at a time) and read each answer as JSON, after
 * `script` has queued the answers: the part of a round no sorting of one mail per request can avoid.
 */
async function bareRequestsMs(url: string, body: string, count: number, script: () => Promise<unknown>): Promise<number> {
  await script();
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": "bench" }, body });
        if (!response.ok) throw new Error(`the bare request answered ${response.status}: ${await response.text()}`);
        await response.json();
      }
    }),
  );
  return performance.now() - began;
}

/**
 * The triaged inbox (issue 53): `triage.msgs_per_s`, one sorting round over 10,000 synced mails (2,000 with --quick)
 * of ~1.5 KB from 40 senders, the fake Gemini answering each structured request at once (over HTTP, as the real one
 * is asked, from a process of its own: the model's work is not SAGE's). The mails are seeded as a finished sync leaves them (a ready item, its chunks, its header row) in an
 * in-process app on SQLite; the round reads each mail's text, asks the model, checks the answer and files the label,
 * and builds the people pages first. Limit: the mail index floor's read-and-index part (decision 048; mailparser,
 * chunker and FTS5 on the same messages, without the IMAP fetch, so a stricter floor than mail-sync's).
 * `triage.vs_index_and_request_floor` (decision 102): the same round against that floor plus the request floor, the
 * time this process takes to send the same number of the very request SAGE sent (its path and body, with `fetch`,
 * 8 at once as the round does) and read the answers: one request per mail is decided (095), so that floor is what
 * any sorting must spend, and the figure is SAGE's own overhead beside it.
 */
export async function triage({ quick }: { quick: boolean }) {
  const count = quick ? 2_000 : 10_000;
  const fake = await startFakeGeminiProcess();
  const t = await createTestApp({ env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "bench", GEMINI_BASE_URL: fake.baseUrl } });
  try {
    await t.login();
    const sqlite = (t.store as unknown as { sqlite: import("better-sqlite3").Database }).sqlite;
    const at = new Date().toISOString();
    const accountId = Number(
      sqlite
        .prepare(
          "INSERT INTO accounts (user_id, kind, name, settings, secrets, status, created_at, updated_at) VALUES (3, 'mail', 'Work', ?, NULL, 'ok', ?, ?)",
        )
        .run(JSON.stringify({ imap: { user: ME } }), at, at).lastInsertRowid,
    );
    const sources: { uid: number; subject: string; source: Buffer }[] = [];
    const read: { uid: number; subject: string; from: string; date: string; chunks: { position: number; source: string; content: string }[] }[] = [];
    let uid = 0;
    for (const message of mailbox(count) as Iterable<{ received: Date; raw: Buffer | string }>) {
      uid++;
      const source = Buffer.from(message.raw);
      const document = await convertEml(source);
      const text = source.toString("utf8");
      const subject = /^Subject: (.*)$/m.exec(text)?.[1]?.trim() ?? "";
      const from = /^From: (.*)$/m.exec(text)?.[1]?.trim() ?? "";
      sources.push({ uid, subject, source });
      read.push({ uid, subject, from, date: message.received.toISOString(), chunks: chunkSections(document.sections) });
    }
    const item = sqlite.prepare(
      "INSERT INTO knowledge_items (user_id, type, name, path, mime_type, status, created_at, updated_at) VALUES (3, 'file', ?, ?, 'message/rfc822', 'ready', ?, ?)",
    );
    const chunk = sqlite.prepare(
      "INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, 3, NULL, ?, ?, ?, ?)",
    );
    const header = sqlite.prepare(
      "INSERT INTO mail_messages (account_id, user_id, folder, uid, message_id, subject, from_address, to_address, date, item_id) VALUES (?, 3, 'INBOX', ?, ?, ?, ?, ?, ?, ?)",
    );
    sqlite.transaction(() => {
      for (const message of read) {
        const name = `${message.subject} (${message.uid}).eml`;
        const itemId = Number(item.run(name, `/Mail/${name}`, at, at).lastInsertRowid);
        for (const piece of message.chunks) chunk.run(itemId, piece.position, piece.source, piece.content, at);
        header.run(accountId, message.uid, `<bench-${message.uid}@example.com>`, message.subject, message.from, `Exec <${ME}>`, message.date, itemId);
      }
    })();

    // The model's answer for every mail, at once: one JSON the triage schema takes (the fake checks it against it).
    const answer = { json: { label: "fyi", reason: "A colleague's update.", urgent: false, urgentReason: null, sentToMany: false, fromMachine: false } };
    await fake.script(...Array.from({ length: count }, () => answer));
    const began = performance.now();
    const sorted = await t.triage.round(3);
    const seconds = (performance.now() - began) / 1000;
    if (sorted !== count) throw new Error(`the round sorted ${sorted} of ${count} mails`);
    const floor = await mailIndexFloorMs(sources, 0, 1);
    const { structured: requests, first } = (await fake.firstStructured()) as { structured: number; first: { path: string; body: unknown } | null };
    if (!first) throw new Error("the fake Gemini saw no structured request");
    const requestFloorMs = await bareRequestsMs(new URL(first.path, fake.baseUrl).href, JSON.stringify(first.body), count, () =>
      fake.script(...Array.from({ length: count }, () => answer)),
    );
    const floorS = (floor.ms + requestFloorMs) / 1000;
    return [
      figure({
        name: "triage.msgs_per_s",
        value: sorted / seconds,
        unit: "msgs/s",
        limit: count / (floor.ms / 1000),
        better: "higher",
        target: ">= 0.5 of limit (issue 53: the mail index floor)",
        params: { mails: count, roundS: round(seconds, 2), modelRequests: requests, indexFloorS: round(floor.ms / 1000, 2), chunks: floor.chunks },
      }),
      figure({
        name: "triage.vs_index_and_request_floor",
        value: sorted / seconds,
        unit: "msgs/s",
        limit: count / floorS,
        better: "higher",
        target: ">= 0.5 of limit (decision 102: the mail index floor plus one bare model request per mail)",
        params: {
          mails: count,
          roundS: round(seconds, 2),
          indexFloorS: round(floor.ms / 1000, 2),
          requestFloorS: round(requestFloorMs / 1000, 2),
          atOnce: AT_ONCE,
        },
      }),
    ];
  } finally {
    await t.close();
    await fake.close();
  }
}
