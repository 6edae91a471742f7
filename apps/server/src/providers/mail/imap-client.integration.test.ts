import { connectionProblemMessage } from "@sage/contracts/accounts";
import { DOVECOT_MISSING, dovecotInstalled, startDovecot } from "@sage/testkit/dovecot-server";
import { freePort } from "@sage/testkit/local-server";
import { describe, expect, it } from "vitest";
import { connectImap, MailConnectionError } from "./imap-client.ts";

const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

describe.skipIf(!installed)("an IMAP server that answers but cannot now", () => {
  it("a token the server could not check (NO [UNAVAILABLE]) is a try-later, not a refused sign-in", async () => {
    // Dovecot's oauth2 passdb with its introspection endpoint down: it answers "NO [UNAVAILABLE] Temporary
    // authentication failure", as Gmail does when it cannot check a token for a moment.
    const closed = await freePort();
    const dovecot = await startDovecot({ user: "exec@example.com", oauth2: { introspectionUrl: `http://sage:secret@127.0.0.1:${closed}/introspect` } });
    try {
      const server = { host: "127.0.0.1", port: dovecot.port, secure: false, user: "exec@example.com", accessToken: "a-token-that-cannot-be-checked" };
      const failure = await connectImap(server, { allowPrivate: false, allowHosts: ["127.0.0.1"] }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(MailConnectionError);
      expect((failure as MailConnectionError).problem).toBe("try-later");
      expect(connectionProblemMessage("try-later", { ...server, signIn: true })).toBe(
        "The mail server 127.0.0.1 had a passing problem and asked to try again later. SAGE tries again at the next sync.",
      );
    } finally {
      await dovecot.stop();
    }
  });
});
