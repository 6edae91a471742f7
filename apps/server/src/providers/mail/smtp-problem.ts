import type { ConnectionProblem } from "@sage/contracts/accounts";
import { MailConnectionError } from "./mail-connection-error.ts";

/** What a failed SMTP exchange tells: the command it failed on, the server's reply code, a socket's error code. */
export interface SmtpFailure {
  command?: string;
  responseCode?: number;
  code?: string;
  message?: string;
  rejected?: string[];
}

/**
 * The step an SMTP exchange failed at, read from the server's reply (RFC 5321): a 4xx anywhere asks to try later;
 * a refused AUTH is the login; a 5xx to MAIL FROM is the sender address, to RCPT TO a recipient, to DATA or after
 * the message the message itself; otherwise the socket's error says DNS, TLS, time-out or network.
 */
export function smtpProblem(failure: SmtpFailure): ConnectionProblem {
  const command = (failure.command ?? "").toUpperCase();
  const reply = failure.responseCode ?? 0;
  const code = failure.code ?? "";
  if (code === "EDNS" || code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
  if (code === "ETIMEDOUT" || code === "ETIMEOUT" || code === "EGREETING") return "timeout";
  if (reply >= 400 && reply < 500) return "try-later";
  if (code === "EAUTH" || command.startsWith("AUTH") || reply === 535 || reply === 534 || reply === 530) return "login";
  if (command === "MAIL FROM") return "sender";
  if (command === "RCPT TO") return "recipient";
  if ((command === "DATA" || code === "EMESSAGE") && reply >= 500) return "message";
  if (code === "ETLS" || /^ERR_SSL|^ERR_TLS|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || /\b(tls|ssl|certificate)\b/i.test(failure.message ?? ""))
    return "tls";
  return "network";
}

export const smtpError = (failure: SmtpFailure): MailConnectionError =>
  new MailConnectionError(smtpProblem(failure), failure.message ?? "SMTP failure", undefined, failure.rejected);
