import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
/** A port the OS says is free right now (fixed ranges collided with other suites on the shared machine). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real server from source in a child process (so it can be SIGKILLed), over the given data dir. */
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}, nodeFlags: string[] = []) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", ...nodeFlags, MAIN], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SAGE_DATA_DIR: dataDir, SAGE_LOG_LEVEL: "error", SAGE_LOGIN_RATE_LIMIT: "100000", ...env },
    // stdout (the log) is read only when a test asks for it: an unread pipe would fill and stall the server.
    stdio: ["ignore", env.SAGE_LOG_LEVEL ? "pipe" : "ignore", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (data) => (stderr += data));
  child.stdout?.on("data", (data) => (stdout += data));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || attempt > 600) throw new Error(`server did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    async login(): Promise<string> {
      const response = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "demo", password: "sage-demo" }),
      });
      return response.headers.get("set-cookie")!.split(";")[0]!;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
    stderr: () => stderr,
    /** Sends a signal to the server process (the load test's SIGUSR2: collect garbage and report memory). */
    signal: (name: NodeJS.Signals) => child.kill(name),
    /** The log lines, when the test set SAGE_LOG_LEVEL. */
    stdout: () => stdout,
  };
}
