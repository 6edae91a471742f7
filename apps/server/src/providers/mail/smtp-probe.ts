import net from "node:net";
import tls from "node:tls";
import { isBlockedAddress } from "../../http/safe-fetch.ts";
import { resolveAllowedHost, type PrivateAddressRule } from "./allowed-host.ts";
import { MailConnectionError } from "./mail-connection-error.ts";
import type { SmtpServer } from "./smtp-client.ts";
import { smtpError } from "./smtp-problem.ts";

const TIMEOUT_MS = 20_000;

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies off a socket: "250-first", "250 last" is one reply (RFC 5321 4.2). */
function replyReader(socket: net.Socket | tls.TLSSocket) {
  let buffer = "";
  const queue: Reply[] = [];
  let lines: string[] = [];
  let waiting: ((reply: Reply) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  let failure: Error | undefined;
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), lines };
        lines = [];
        if (waiting) {
          const resolve = waiting;
          waiting = undefined;
          failed = undefined;
          resolve(reply);
        } else queue.push(reply);
      }
    }
  };
  const onEnd = (error?: Error) => {
    failure ??= error ?? Object.assign(new Error("the server closed the connection"), { code: "ECONNECTION" });
    failed?.(failure);
  };
  socket.on("data", onData);
  socket.on("error", onEnd);
  socket.on("close", () => onEnd());
  return {
    next(): Promise<Reply> {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiting = resolve;
        failed = reject;
      });
    },
    detach() {
      socket.off("data", onData);
    },
  };
}

/**
 * Checks that the account can send, without sending: connect, TLS (from the first byte, or STARTTLS), AUTH (PLAIN or
 * LOGIN with the password, XOAUTH2 with a token), then `MAIL FROM` with the sender address and RSET, so nothing is
 * sent. A failure is a MailConnectionError naming the step, read from the server's reply (smtp-problem.ts).
 */
export async function probeSmtp(server: SmtpServer, rule: PrivateAddressRule, envelopeFrom: string): Promise<void> {
  const address = await resolveAllowedHost(server.host, server.port, rule);
  let socket: net.Socket | tls.TLSSocket | undefined;
  let command = "CONN";
  const fail = (reply: Reply | null, error?: { code?: string; message?: string }) =>
    smtpError({
      command,
      ...(reply ? { responseCode: reply.code } : {}),
      code: error?.code,
      message: reply ? `${command}: ${reply.lines.join(" / ")}` : (error?.message ?? "SMTP failure"),
    });
  try {
    socket = await open(address, server);
    let reader = replyReader(socket);
    const expect = async (ok: (code: number) => boolean) => {
      const reply = await reader.next();
      if (!ok(reply.code)) throw fail(reply);
      return reply;
    };
    const send = (line: string, name = line.split(/[ :]/)[0]!) => {
      command = name;
      socket!.write(`${line}\r\n`);
    };
    await expect((code) => code === 220);
    send("EHLO sage.localhost", "EHLO");
    let hello = await expect((code) => code === 250);
    if (!server.secure) {
      if (!hello.lines.some((line) => /^250[ -]STARTTLS/i.test(line))) {
        // Without TLS a password would cross the network in clear: only a private server the operator allowed may.
        if (!isBlockedAddress(address)) throw Object.assign(new Error("the server offers no STARTTLS"), { code: "ETLS" });
      } else {
        send("STARTTLS");
        await expect((code) => code === 220);
        reader.detach();
        command = "STARTTLS";
        socket = await upgrade(socket as net.Socket, server.host);
        reader = replyReader(socket);
        send("EHLO sage.localhost", "EHLO");
        hello = await expect((code) => code === 250);
      }
    }
    const mechanisms = hello.lines.flatMap((line) => (/^250[ -]AUTH[ =](.*)$/i.exec(line)?.[1] ?? "").toUpperCase().split(/\s+/));
    if (server.accessToken) {
      const xoauth2 = Buffer.from(`user=${server.user}\x01auth=Bearer ${server.accessToken}\x01\x01`).toString("base64");
      send(`AUTH XOAUTH2 ${xoauth2}`, "AUTH XOAUTH2");
      const reply = await reader.next();
      // A refused token is a 334 carrying the error as JSON; the client answers with an empty line, then gets 535.
      if (reply.code === 334) {
        socket.write("\r\n");
        throw fail(await reader.next());
      }
      if (reply.code !== 235) throw fail(reply);
    } else if (mechanisms.includes("PLAIN") || !mechanisms.includes("LOGIN")) {
      send(`AUTH PLAIN ${Buffer.from(`\0${server.user}\0${server.password ?? ""}`).toString("base64")}`, "AUTH PLAIN");
      await expect((code) => code === 235);
    } else {
      send("AUTH LOGIN");
      await expect((code) => code === 334);
      socket.write(`${Buffer.from(server.user).toString("base64")}\r\n`);
      await expect((code) => code === 334);
      socket.write(`${Buffer.from(server.password ?? "").toString("base64")}\r\n`);
      await expect((code) => code === 235);
    }
    send(`MAIL FROM:<${envelopeFrom}>`, "MAIL FROM");
    await expect((code) => code === 250);
    send("RSET");
    await expect((code) => code === 250);
    send("QUIT");
    await reader.next().catch(() => undefined);
  } catch (error) {
    if (error instanceof MailConnectionError) throw error;
    throw fail(null, error as { code?: string; message?: string });
  } finally {
    socket?.destroy();
  }
}

function open(address: string, server: SmtpServer): Promise<net.Socket | tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = server.secure
      ? tls.connect({ host: address, port: server.port, servername: server.host }, () => resolve(socket))
      : net.connect({ host: address, port: server.port }, () => resolve(socket));
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    socket.once("error", (error: Error & { code?: string }) => reject(/CERT|SSL|TLS/i.test(error.code ?? "") ? Object.assign(error, { code: "ETLS" }) : error));
  });
}

function upgrade(plain: net.Socket, host: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket: plain, servername: host }, () => resolve(secure));
    secure.setTimeout(TIMEOUT_MS, () => secure.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    secure.once("error", (error) => reject(Object.assign(error, { code: "ETLS" })));
  });
}
