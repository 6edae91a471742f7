import type { ConnectionProblem } from "@sage/contracts/accounts";

/** Which step of reaching a mail server failed, for the plain words the user is shown. */
export class MailConnectionError extends Error {
  constructor(
    readonly problem: ConnectionProblem,
    message: string,
    readonly folder?: string,
    /** SMTP: the recipients the server refused (user-given addresses, safe to name). */
    readonly rejected?: string[],
  ) {
    super(message);
    this.name = "MailConnectionError";
  }
}
