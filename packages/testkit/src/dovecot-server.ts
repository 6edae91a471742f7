import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import { freePort, systemIds } from "./local-server.ts";
import { makeTempDir } from "./temp-dir.ts";

/** Where Debian's dovecot-imapd puts the server; tests that need it skip, saying so, when it is absent. */
export const DOVECOT_BINARY = "/usr/sbin/dovecot";
export const dovecotInstalled = () => existsSync(DOVECOT_BINARY);
export const DOVECOT_MISSING = "Dovecot is not installed (apt-get install -y dovecot-imapd): the IMAP integration tests are skipped";

export interface DovecotServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** A raw IMAP session as the mailbox's owner, to seed and change mail behind SAGE's back. */
  session(): Promise<ImapSession>;
  stop(): Promise<void>;
}

/**
 * A real Dovecot IMAP server on a free loopback port, with one user whose maildir lives in a temporary folder:
 * plain-text login without TLS (loopback only), INBOX, Sent and Drafts.
 */
export async function startDovecot(
  options: {
    user?: string;
    password?: string;
    /** Messages written straight into the INBOX's Maildir before the server starts (a large mailbox in seconds, no APPEND). */
    inbox?: Iterable<{ raw: string; received: Date }>;
    /**
     * Also take XOAUTH2 and OAUTHBEARER logins, each token checked at this RFC 7662 introspection address (client
     * credentials in the URL): active, and its `email` the login name, as Gmail and Microsoft 365 check theirs.
     */
    oauth2?: { introspectionUrl: string };
    /** More folders the server creates, each with its SPECIAL-USE flag if any (`{ name: "Trash", specialUse: "\\Trash" }`). */
    folders?: { name: string; specialUse?: string }[];
  } = {},
): Promise<DovecotServer> {
  const user = options.user ?? "anna";
  const password = options.password ?? "app-password-1";
  const temp = makeTempDir("sage-dovecot-");
  const dir = temp.dir;
  const port = await freePort();
  const me = userInfo();
  const root = me.uid === 0;
  const mailIds = root ? systemIds("dovecot") : { uid: me.uid, gid: me.gid };
  for (const sub of ["run", "state", "mail", "home"]) mkdirSync(path.join(dir, sub));
  chmodSync(dir, 0o755);
  if (root) for (const sub of ["mail", "home"]) chownSync(path.join(dir, sub), mailIds.uid, mailIds.gid);
  writeFileSync(path.join(dir, "users"), `${user}:{PLAIN}${password}\n`);
  if (options.oauth2) {
    writeFileSync(
      path.join(dir, "oauth2.conf.ext"),
      [
        "introspection_mode = post",
        `introspection_url = ${options.oauth2.introspectionUrl}`,
        "force_introspection = yes",
        "username_attribute = email",
        "active_attribute = active",
        "active_value = true",
        "",
      ].join("\n"),
    );
  }
  if (options.inbox) seedMaildir(path.join(dir, "mail", user), options.inbox, root ? mailIds : null);
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${options.oauth2 ? " xoauth2 oauthbearer" : ""}
# A wrong password is answered at once: tests of login failures need not wait two seconds each.
auth_failure_delay = 0
default_login_user = ${root ? "dovenull" : me.username}
default_internal_user = ${root ? "dovecot" : me.username}
default_internal_group = ${root ? "dovecot" : me.username}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
${
  options.oauth2
    ? `passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${dir}/oauth2.conf.ext
}
`
    : ""
}userdb {
  driver = static
  args = uid=${mailIds.uid} gid=${mailIds.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
namespace inbox {
  inbox = yes
  mailbox Sent {
    special_use = \\Sent
    auto = create
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = create
  }
${(options.folders ?? []).map((folder) => `  mailbox "${folder.name}" {\n${folder.specialUse ? `    special_use = ${folder.specialUse}\n` : ""}    auto = create\n  }\n`).join("")}}
`;
  writeFileSync(path.join(dir, "dovecot.conf"), config);
  const child: ChildProcess = spawn(DOVECOT_BINARY, ["-F", "-c", path.join(dir, "dovecot.conf")], { stdio: "ignore" });
  const server: DovecotServer = {
    host: "127.0.0.1",
    port,
    user,
    password,
    session: () => openSession("127.0.0.1", port, user, password),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      temp.remove();
    },
  };
  // Ready once a login works (the auth process starts a moment after the listener).
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const session = await server.session();
      await session.close();
      return server;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) {
        await server.stop();
        throw new Error(`Dovecot did not start: ${String(error)}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Writes messages into a Maildir's cur/ as Dovecot would have delivered them (seen, CRLF lines), each file's
 * modification time its received date (what IMAP SEARCH SINCE reads); owned by the mail user when run as root.
 */
function seedMaildir(maildir: string, messages: Iterable<{ raw: string; received: Date }>, owner: { uid: number; gid: number } | null) {
  for (const sub of ["", "cur", "new", "tmp"]) mkdirSync(path.join(maildir, sub), { recursive: true });
  let n = 0;
  for (const message of messages) {
    const seconds = Math.floor(message.received.getTime() / 1000);
    const file = path.join(maildir, "cur", `${seconds}.M${++n}P1.sage-seed:2,S`);
    writeFileSync(file, message.raw.replace(/\r?\n/g, "\r\n"));
    utimesSync(file, message.received, message.received);
  }
  if (owner) {
    const chownTree = (folder: string) => {
      chownSync(folder, owner.uid, owner.gid);
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) chownTree(full);
        else chownSync(full, owner.uid, owner.gid);
      }
    };
    chownTree(path.dirname(maildir));
  }
}

/** Just enough IMAP to seed a mailbox and look into it: APPEND, reading a folder, deleting or moving by Message-ID. */
export interface ImapSession {
  append(folder: string, message: string): Promise<void>;
  /** Every message of a folder: its flags and its whole text (ASCII mail only: the literal's length is in bytes). */
  messages(folder: string): Promise<{ flags: string[]; raw: string }[]>;
  /** Flags the message \Deleted and expunges it. */
  remove(folder: string, messageId: string): Promise<void>;
  move(from: string, to: string, messageId: string): Promise<void>;
  close(): Promise<void>;
}

async function openSession(host: string, port: number, user: string, password: string): Promise<ImapSession> {
  const socket = net.connect(port, host);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let buffer = "";
  let waiting: (() => void) | undefined;
  let failure: Error | undefined;
  socket.on("data", (data) => {
    buffer += data.toString("utf8");
    waiting?.();
  });
  socket.on("error", (error) => {
    failure = error;
    waiting?.();
  });
  socket.on("close", () => {
    failure ??= new Error("IMAP connection closed");
    waiting?.();
  });
  async function until(test: (text: string) => boolean): Promise<string> {
    for (;;) {
      if (test(buffer)) {
        const text = buffer;
        buffer = "";
        return text;
      }
      if (failure) throw failure;
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  }
  let tagCount = 0;
  async function command(text: string, literal?: string): Promise<string> {
    const tag = `t${++tagCount}`;
    if (literal === undefined) socket.write(`${tag} ${text}\r\n`);
    else {
      socket.write(`${tag} ${text} {${Buffer.byteLength(literal)}}\r\n`);
      await until((received) => received.includes("+ "));
      socket.write(`${literal}\r\n`);
    }
    const answer = await until((received) => new RegExp(`^${tag} (OK|NO|BAD)`, "m").test(received));
    const status = new RegExp(`^${tag} (OK|NO|BAD)(.*)$`, "m").exec(answer)!;
    if (status[1] !== "OK") throw new Error(`IMAP ${text.split(" ")[0]} failed: ${status[2]!.trim()}`);
    return answer;
  }
  await until((received) => received.includes("\r\n") && /^\* OK .*ready/m.test(received));
  await command(`LOGIN ${user} "${password}"`);
  async function uidOf(folder: string, messageId: string): Promise<string> {
    await command(`SELECT "${folder}"`);
    const found = /^\* SEARCH ([\d ]+)/m.exec(await command(`UID SEARCH HEADER Message-ID "${messageId}"`));
    if (!found) throw new Error(`no message ${messageId} in ${folder}`);
    return found[1]!.trim().split(" ")[0]!;
  }
  return {
    async append(folder, message) {
      await command(`APPEND "${folder}"`, message.replace(/\r?\n/g, "\r\n"));
    },
    async messages(folder) {
      await command(`SELECT "${folder}"`);
      const answer = await command("UID FETCH 1:* (FLAGS BODY.PEEK[])");
      const found: { flags: string[]; raw: string }[] = [];
      const head = /^\* \d+ FETCH \(.*?FLAGS \(([^)]*)\).*?BODY\[\] \{(\d+)\}\r\n/gm;
      for (let match = head.exec(answer); match; match = head.exec(answer)) {
        const start = match.index + match[0].length;
        found.push({ flags: match[1]!.split(" ").filter(Boolean), raw: answer.slice(start, start + Number(match[2])) });
        head.lastIndex = start + Number(match[2]);
      }
      return found;
    },
    async remove(folder, messageId) {
      const uid = await uidOf(folder, messageId);
      await command(`UID STORE ${uid} +FLAGS (\\Deleted)`);
      await command("EXPUNGE");
    },
    async move(from, to, messageId) {
      const uid = await uidOf(from, messageId);
      await command(`UID MOVE ${uid} "${to}"`);
    },
    async close() {
      await command("LOGOUT").catch(() => undefined);
      socket.destroy();
    },
  };
}

/** An RFC 822 message as a mail client would send it. */
export function mailMessage(fields: { from: string; to: string; subject: string; date: Date; messageId: string; body: string; html?: boolean }): string {
  return [
    `From: ${fields.from}`,
    `To: ${fields.to}`,
    `Subject: ${fields.subject}`,
    `Date: ${fields.date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: ${fields.messageId}`,
    "MIME-Version: 1.0",
    `Content-Type: ${fields.html ? "text/html" : "text/plain"}; charset=utf-8`,
    "",
    fields.body,
  ].join("\r\n");
}
