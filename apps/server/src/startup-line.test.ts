import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { startupLine } from "./startup-line.ts";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/**
 * Starts the real server on a free port and collects its standard output until a plain (non-JSON) line appears;
 * `output()` goes on collecting (pino may flush its JSON lines after the plain line is written).
 */
function firstPlainLine(env: Record<string, string>): Promise<{ line: string; output: () => string }> {
  const temp = makeTempDir();
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      ...process.env,
      SAGE_DATA_DIR: temp.dir,
      PORT: "0",
      HOST: "127.0.0.1",
      SAGE_LLM_PROVIDER: "none",
      SAGE_EMBEDDER: "none",
      SAGE_WEB_SEARCH: "none",
      ...env,
    },
  });
  cleanups.push(() => child.kill("SIGKILL"), temp.remove);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (data: Buffer) => {
      output += data.toString("utf8");
      const line = output.split("\n").find((text) => text.trim() && !text.startsWith("{"));
      if (line) resolve({ line, output: () => output });
    });
    child.stderr.on("data", (data: Buffer) => (output += data.toString("utf8")));
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before printing its address:\n${output}`)));
  });
}

describe("the start-up line", () => {
  it("prints the address to open and the demonstration login while the default password is in use", async () => {
    const { line, output } = await firstPlainLine({ SAGE_LOG_LEVEL: "info" });
    expect(line).toMatch(/^SAGE is running at http:\/\/127\.0\.0\.1:\d+ - log in as demo \/ sage-demo /);
    // The machine-readable log lines are still there, at the level asked for.
    await expect.poll(output).toContain('"msg":"SAGE is ready"');
  });

  it("names no password once SAGE_PASSWORD is set, and prints even with logging silenced", async () => {
    const { line, output } = await firstPlainLine({ SAGE_PASSWORD: "a private passphrase", SAGE_LOG_LEVEL: "silent" });
    expect(line).toMatch(/^SAGE is running at http:\/\/127\.0\.0\.1:\d+$/);
    expect(output()).not.toContain("a private passphrase");
    expect(output()).not.toContain("sage-demo");
  });

  it("turns a wildcard bind into an address a browser can open", () => {
    const demoUser = { username: "demo", password: "secret-enough" };
    expect(startupLine({ demoUser }, { address: "0.0.0.0", port: 5000 })).toBe("SAGE is running at http://127.0.0.1:5000");
    expect(startupLine({ demoUser }, { address: "::", port: 5000 })).toBe("SAGE is running at http://127.0.0.1:5000");
    expect(startupLine({ demoUser }, { address: "::1", port: 8080 })).toBe("SAGE is running at http://[::1]:8080");
  });
});
