import { afterEach, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { startServerProcess } from "./server-process.ts";

const PASSWORD = "Zq9-account-password-4471";
const TOKEN = "ya29.account-token-8812";
const temp = makeTempDir();
afterEach(() => temp.remove());

it("an account's password and token appear in no log line, at the most verbose level, whatever the account does", async () => {
  const server = await startServerProcess(temp.dir, { SAGE_LOG_LEVEL: "trace" });
  try {
    const cookie = await server.login();
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    const account = {
      kind: "mail",
      name: "Work mail",
      imap: { host: "127.0.0.1", port: 1993, secure: true, user: "anna@example.com", password: PASSWORD },
      smtp: { host: "127.0.0.1", port: 1465, secure: true, user: "anna@example.com", accessToken: TOKEN },
    };
    expect((await post("/api/accounts/test", account)).status).toBe(200);
    const created = await post("/api/accounts", account);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // A bad request echoes nothing of what was sent either.
    expect((await post("/api/accounts", { ...account, imap: { ...account.imap, port: "not a port" } })).status).toBe(400);
    for (let i = 0; i < 100; i++) {
      const [listed] = (await (await fetch(`${server.url}/api/accounts`, { headers: { cookie } })).json()) as { status: string }[];
      if (listed!.status !== "syncing") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await post(`/api/accounts/${id}/sync`, {})).status).toBe(202);
  } finally {
    await server.stop();
  }
  const log = server.stdout() + server.stderr();
  expect(log).toContain("/api/accounts"); // the requests were logged...
  expect(log).not.toContain(PASSWORD); // ...without the secrets
  expect(log).not.toContain(TOKEN);
});
