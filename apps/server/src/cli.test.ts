import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { postgresInstalled, startPostgres } from "@sage/testkit/postgres-server";
import { createPostgresTestApp, createTestApp } from "./test/test-app.ts";

const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));
const temps: { remove(): void }[] = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));

const run = (dataDir: string, args: string[], input?: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { env: { ...process.env, SAGE_DATA_DIR: dataDir, ...env }, encoding: "utf8", input });

describe("sage-admin add-user", () => {
  it("adds an account that can log in, numbered after the demonstration account even on a fresh store", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const added = run(temp.dir, ["add-user", "alice", "long-password"]);
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ id: 4, username: "alice" });

    const t = await createTestApp({ env: { SAGE_DATA_DIR: temp.dir } });
    const cookie = await t.login({ username: "alice", password: "long-password" });
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(me.json().user).toEqual({ id: 4, username: "alice" });
    expect((await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username: "demo", password: "sage-demo" } })).json().user.id).toBe(3);
    await t.close();
  });

  it("refuses a taken name, a short password, and a missing argument", () => {
    const temp = makeTempDir();
    temps.push(temp);
    expect(run(temp.dir, ["add-user", "bob", "long-password"]).status).toBe(0);
    const taken = run(temp.dir, ["add-user", "bob", "other-password"]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain("That username is taken");
    expect(run(temp.dir, ["add-user", "carol", "short"]).stderr).toContain("at least 8 characters");
    expect(run(temp.dir, ["add-user"]).stderr).toContain("Usage: sage-admin add-user");
  });
});

describe.skipIf(!postgresInstalled())("sage-admin add-user on PostgreSQL", () => {
  it("adds the account to the database SAGE_DATABASE_URL names, numbered after the demonstration account", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const postgres = await startPostgres();
    try {
      const url = await postgres.createDatabase();
      const env = { SAGE_DATABASE_URL: url, SAGE_SECRET_KEY: "c2FnZS10ZXN0LXNlY3JldC1rZXktMzItYnl0ZXMhISE=", SAGE_FILES_DIR: `${temp.dir}/files` };
      const added = run(temp.dir, ["add-user", "alice", "long-password"], undefined, env);
      expect(added.status, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toEqual({ id: 4, username: "alice" });
      const t = await createPostgresTestApp(url);
      try {
        const cookie = await t.login({ username: "alice", password: "long-password" });
        expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).json().user).toEqual({ id: 4, username: "alice" });
      } finally {
        await t.close();
      }
    } finally {
      await postgres.stop();
    }
  });
});

describe("sage-admin add-users", () => {
  it("adds one account per line, reports the lines it refused by number, and still adds the rest", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    expect(run(temp.dir, ["add-user", "bob", "long-password"]).status).toBe(0);
    const added = run(temp.dir, ["add-users"], "dana  a pass phrase with spaces\n\nbob other-password\nerin short\nfrank frank-password\n");
    expect(added.status).toBe(1);
    expect(
      added.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).username),
    ).toEqual(["dana", "frank"]);
    expect(added.stderr).toContain("Line 3: That username is taken");
    expect(added.stderr).toContain("Line 4: The password must be at least 8 characters.");

    const t = await createTestApp({ env: { SAGE_DATA_DIR: temp.dir } });
    const dana = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username: "dana", password: "a pass phrase with spaces" } });
    expect(dana.statusCode).toBe(200);
    await t.close();
  });
});
