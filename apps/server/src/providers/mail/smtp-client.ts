import { isBlockedAddress } from "../../http/safe-fetch.ts";
import { resolveAllowedHost, type PrivateAddressRule } from "./allowed-host.ts";
import { composeMail, type OutgoingMail } from "./compose-mail.ts";
import { smtpError } from "./smtp-problem.ts";

export type { OutgoingMail } from "./compose-mail.ts";

export interface SmtpServer {
  host: string;
  port: number;
  /** true: TLS from the first byte (465); false: STARTTLS, required (587). */
  secure: boolean;
  user: string;
  password?: string;
  /** An OAuth 2.0 access token, sent with XOAUTH2 (Gmail, Microsoft 365). */
  accessToken?: string;
}

const TIMEOUT_MS = 30_000;

/**
 * Sends one message through the account's SMTP server with nodemailer, after the same private-address check as
 * IMAP (the connection goes to the address checked; TLS verifies the server's name). Answers the Message-ID.
 * `envelopeFrom` is the bare sender address (MAIL FROM); a failure is a MailConnectionError naming the step.
 */
export async function sendSmtp(
  server: SmtpServer,
  rule: PrivateAddressRule,
  mail: OutgoingMail & { envelopeFrom: string },
): Promise<{ messageId: string; raw: Buffer }> {
  const address = await resolveAllowedHost(server.host, server.port, rule);
  const { createTransport } = await import("nodemailer");
  const transport = createTransport({
    host: address,
    port: server.port,
    secure: server.secure,
    // A password never crosses the internet in clear: plain SMTP only to a private server the administrator allowed.
    requireTLS: !server.secure && !isBlockedAddress(address),
    tls: { servername: server.host },
    auth: server.accessToken ? { type: "OAuth2", user: server.user, accessToken: server.accessToken } : { user: server.user, pass: server.password ?? "" },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    logger: false,
    debug: false,
  });
  // Built once, so the copy kept in Sent is byte for byte what was sent.
  const { messageId, raw } = await composeMail(mail);
  try {
    await transport.sendMail({ envelope: { from: mail.envelopeFrom, to: [...mail.to, ...mail.cc] }, raw });
    return { messageId, raw };
  } catch (error) {
    throw smtpError(error as Parameters<typeof smtpError>[0]);
  } finally {
    transport.close();
  }
}
