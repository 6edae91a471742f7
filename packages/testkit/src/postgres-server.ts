import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, systemIds } from "./local-server.ts";
import { makeTempDir } from "./temp-dir.ts";

/** Where Debian's postgresql-15 package puts the server; tests that need it skip, saying so, when it is absent. */
export const POSTGRES_BIN = "/usr/lib/postgresql/15/bin";
export const postgresInstalled = () => ["initdb", "postgres", "createdb"].every((name) => existsSync(path.join(POSTGRES_BIN, name)));
export const POSTGRES_MISSING = "PostgreSQL 15 is not installed (apt-get install -y postgresql): the PostgreSQL integration tests are skipped";

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/sage`: the database made at start. */
  url: string;
  host: string;
  port: number;
  /** The superuser every database belongs to (trust authentication: loopback and the temp folder's socket only). */
  user: string;
  /** The temporary folder: the data directory (`data/`), the unix socket and the server's log. */
  dir: string;
  /** Makes a fresh, empty database on this server (far cheaper than another server) and answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes the folder. */
  stop(): Promise<void>;
}

/** Where a running test server listens: what a globalSetup hands its test files (provide/inject). */
export type PostgresAddress = Pick<PostgresServer, "host" | "port" | "user">;

/** The environment PostgreSQL's programs run in: C gives English messages and byte-order sorting. */
const programEnv = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C", LANG: "C" });

/**
 * Makes a fresh database on a running server and answers its URL: empty, or a copy of `template` (a database nobody
 * is connected to). Its default name is unique across the processes and test files sharing the server (a file's
 * module state may start again in the same process).
 */
export async function createDatabaseOn(
  server: PostgresAddress,
  name = `test_${process.pid}_${randomBytes(6).toString("hex")}`,
  template?: string,
): Promise<string> {
  for (const each of [name, template ?? "template1"]) if (!/^[a-z_][a-z0-9_]*$/.test(each)) throw new Error(`not a plain database name: ${each}`);
  // SQL over a connection, not the createdb program: its process cost 150 ms of the 180 a test app's database took.
  // FILE_COPY copies the template's files at once (PostgreSQL 15's default writes every page through the WAL): 35
  // against 55-75 ms for the migrated template, with the checkpoints it needs cheap on a server without fsync.
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: "postgres" });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template ?? "template1"}${template ? " STRATEGY FILE_COPY" : ""}`);
  } finally {
    await client.end();
  }
  return `postgres://${server.user}@${server.host}:${server.port}/${name}`;
}

/** Runs a PostgreSQL program to its end; rejects with its output when it fails. */
function run(program: string, args: string[], options: SpawnOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(POSTGRES_BIN, program), args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited with ${code}: ${output}`))));
  });
}

/**
 * A real PostgreSQL 15 server on a free loopback port, its data directory and unix socket in a temporary folder,
 * with one database (`sage`). Durability is off (fsync, full-page writes, synchronous commit): a test's data need not
 * survive a power cut, and initdb plus start-up take well under two seconds that way. As root, the folder is the
 * postgres system user's and the programs run as that user.
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const temp = makeTempDir("sage-postgres-");
  const dir = temp.dir;
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const me = userInfo();
  const ids = me.uid === 0 ? systemIds("postgres") : { uid: me.uid, gid: me.gid };
  chmodSync(dir, 0o700);
  if (me.uid === 0) chownSync(dir, ids.uid, ids.gid);
  // The environment's locale and PG* variables must not leak in.
  const env = programEnv();
  const asOwner: SpawnOptions = { env, cwd: dir, ...(me.uid === 0 ? ids : {}) };
  const user = "postgres";
  let child: ChildProcess | undefined;
  let output = "";
  // A test file that times out in afterAll never calls stop(): the server would outlive the test process.
  const stopOnExit = () => {
    child?.kill("SIGQUIT"); // immediate shutdown: exit handlers cannot wait
    temp.remove();
  };
  process.once("exit", stopOnExit);
  const stop = async () => {
    process.off("exit", stopOnExit);
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      // Smart shutdown first: a pool's end() resolves before its sockets close, and a connection the server ended
      // under it then raised an error nobody listened for. Sessions still open after a moment are ended (fast).
      child.kill("SIGTERM");
      const fast = setTimeout(() => child!.kill("SIGINT"), 2_000);
      await exited;
      clearTimeout(fast);
    }
    temp.remove();
  };
  try {
    await run(
      "initdb",
      ["--pgdata", dataDir, "--username", user, "--auth", "trust", "--encoding", "UTF8", "--locale", "C", "--no-sync", "--no-instructions"],
      asOwner,
    );
    const settings = {
      listen_addresses: "127.0.0.1",
      port: String(port),
      unix_socket_directories: dir,
      fsync: "off",
      full_page_writes: "off",
      synchronous_commit: "off",
      max_connections: String(options.maxConnections ?? 50),
      shared_buffers: "16MB",
      logging_collector: "off",
    };
    const args = ["-D", dataDir, ...Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`])];
    child = spawn(path.join(POSTGRES_BIN, "postgres"), args, { ...asOwner, stdio: ["ignore", "pipe", "pipe"] });
    const ready = new Promise<void>((resolve, reject) => {
      for (const stream of [child!.stdout, child!.stderr])
        stream?.on("data", (chunk: Buffer) => {
          output = (output + chunk.toString()).slice(-8000);
          if (output.includes("database system is ready to accept connections")) resolve();
        });
      child!.once("exit", (code) => reject(new Error(`postgres exited (${code}) before it was ready: ${output}`)));
      setTimeout(() => reject(new Error(`postgres did not start within 30 s: ${output}`)), 30_000).unref();
    });
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  const address = { host: "127.0.0.1", port, user };
  const createDatabase = (name?: string) => createDatabaseOn(address, name);
  let url: string;
  try {
    url = await createDatabase("sage");
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, ...address, dir, createDatabase, stop };
}
