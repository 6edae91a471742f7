import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { freePort } from "./local-server.ts";

/** The reference server that exercises every feature of MCP (@modelcontextprotocol/server-everything). */
const bin = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/server-everything/package.json")
  .replace(/package\.json$/, "dist/index.js");

/** An mcp.json entry that starts the reference server over stdio. */
export function everythingStdioEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [bin, "stdio"] };
}

export interface EverythingHttpServer {
  /** Its Streamable HTTP endpoint. */
  url: string;
  close(): Promise<void>;
}

/** The reference server over Streamable HTTP, its own transport, on a free loopback port; stopped by `close`. */
export async function startEverythingHttp(): Promise<EverythingHttpServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    const outcome = await new Promise<"listening" | "taken" | string>((resolve) => {
      let said = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("listening on port")) resolve("listening");
        else if (said.includes("already in use")) resolve("taken");
      });
      child.on("exit", (code) => resolve(`exited with ${code}: ${said}`));
    });
    if (outcome === "listening") return { url: `http://127.0.0.1:${port}/mcp`, close: () => stop(child) };
    await stop(child);
    // Another test took the port between the look and the start: take another.
    if (outcome !== "taken" || attempt >= 3) throw new Error(`server-everything did not start: ${outcome}`);
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
