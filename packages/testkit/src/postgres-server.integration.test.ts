import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { POSTGRES_BIN, POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "./postgres-server.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Asks the server through psql, as a user would, over TCP. */
const psql = (url: string, sql: string) => spawnSync(path.join(POSTGRES_BIN, "psql"), [url, "-qtA", "-c", sql], { encoding: "utf8" });

describe.skipIf(!installed)("startPostgres", () => {
  const started: PostgresServer[] = [];
  afterAll(async () => Promise.all(started.map((server) => server.stop())));

  it("serves the sage database and fresh databases beside it, on loopback and on a socket in its folder", async () => {
    const server = await startPostgres();
    started.push(server);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/sage`);
    expect(psql(server.url, "SELECT current_database()").stdout.trim()).toBe("sage");
    const other = await server.createDatabase();
    expect(other).not.toBe(server.url);
    expect(psql(other, "CREATE TABLE t (x int); SELECT count(*) FROM t").stdout.trim()).toBe("0");
    // Each database is its own: the table made in the second is not in the first.
    expect(psql(server.url, "SELECT to_regclass('t') IS NULL").stdout.trim()).toBe("t");
    expect(statSync(path.join(server.dir, `.s.PGSQL.${server.port}`)).isSocket()).toBe(true);
  });

  it("stop() ends the server, frees its port and removes its folder", async () => {
    const server = await startPostgres();
    expect(await accepts(server.port)).toBe(true);
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    expect(await accepts(server.port)).toBe(false);
    // Free: another listener can take the port at once.
    const listener = net.createServer();
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(server.port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => listener.close(resolve));
  });
});
