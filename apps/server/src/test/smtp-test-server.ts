import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server (smtp-server) on a loopback port that keeps what it receives, after checking the login: the
 * password with PLAIN or LOGIN, or, with `checkToken`, an XOAUTH2 bearer token (asked of the identity server's
 * introspection endpoint, as Gmail and Exchange ask theirs). Like Postfix with reject_non_fqdn_sender, it refuses a
 * sender that is not an address with "501 5.1.7 Bad sender address syntax".
 */
export async function startSmtp(
  user: string,
  password: string,
  options: { checkToken?: (token: string) => Promise<{ active: boolean; email?: string }> } = {},
) {
  const received: { from: string; to: string[]; data: string }[] = [];
  const logins: { method: string; user: string }[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: options.checkToken ? ["PLAIN", "LOGIN", "XOAUTH2"] : ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.method === "XOAUTH2") {
        options.checkToken!(auth.accessToken ?? "").then(
          (token) => {
            const login = auth.username ?? "";
            if (token.active && token.email === login) {
              logins.push({ method: "XOAUTH2", user: login });
              callback(null, { user: login });
            } else callback(null, { data: { status: "401", schemes: "bearer", scope: "https://mail.google.com/" } });
          },
          (error: Error) => callback(error),
        );
        return;
      }
      if (auth.username === user && auth.password === password) {
        logins.push({ method: auth.method, user });
        callback(null, { user });
      } else callback(new Error("Invalid username or password"));
    },
    onMailFrom(address, _session, callback) {
      if (!address.address.includes("@")) callback(Object.assign(new Error("5.1.7 Bad sender address syntax"), { responseCode: 501 }));
      else callback();
    },
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on("data", (part: Buffer) => parts.push(part));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((entry) => entry.address),
          data: Buffer.concat(parts).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
