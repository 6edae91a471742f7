import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), "sage-ocr-offline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Loaded through NODE_OPTIONS, so it runs in every process (the OCR process too) and every worker thread in them
// (tesseract.js's): any TCP connection, name lookup or fetch is reported and refused. Local pipes stay open (tsx's loader uses one).
const GUARD = `
const net = require("node:net"), tls = require("node:tls"), dns = require("node:dns");
const refuse = (what) => { process.stderr.write("NETWORK ATTEMPT " + what + "\\n"); throw new Error("network refused by test"); };
const isPipe = (target) => Array.isArray(target) ? isPipe(target[0]) : (typeof target === "string" && !/^\\d+$/.test(target)) || (typeof target === "object" && target !== null && "path" in target);
for (const [owner, name] of [[net.Socket.prototype, "connect"], [net, "connect"], [net, "createConnection"], [tls, "connect"]]) {
  const original = owner[name];
  owner[name] = function (target, ...rest) {
    return isPipe(target) ? original.call(this, target, ...rest) : refuse(name + " " + JSON.stringify(target));
  };
}
dns.lookup = dns.promises.lookup = (host) => refuse("dns " + host);
globalThis.fetch = async (url) => refuse("fetch " + url);
`;

async function runGuarded(script: string): Promise<{ stdout: string; stderr: string }> {
  const guard = path.join(dir, "guard.cjs");
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(guard, GUARD);
  writeFileSync(file, script);
  const tsx = pathToFileURL(require.resolve("tsx/esm")).href;
  const env = { ...process.env, NODE_OPTIONS: `--require ${guard}` };
  return promisify(execFile)(process.execPath, ["--import", tsx, file], { timeout: 120_000, env }).catch((error: { stdout: string; stderr: string }) => error);
}

describe("OCR offline", () => {
  it("recognises text with the network refused in every thread, and never tries to reach it", async () => {
    const modules = (name: string) => pathToFileURL(path.join(import.meta.dirname, name)).href;
    const { stdout, stderr } = await runGuarded(`
      import { convertImage } from ${JSON.stringify(modules("../converters/convert-image.ts"))};
      import { closeOcr } from ${JSON.stringify(modules("ocr-engine.ts"))};
      import { renderTextImage } from ${JSON.stringify(modules("../test/test-images.ts"))};
      const document = await convertImage(renderTextImage(["Offline recognition of the Falcon memo."]));
      console.log(JSON.stringify(document.sections));
      await closeOcr();
    `);
    expect(stderr).not.toContain("NETWORK ATTEMPT");
    expect(stdout).toContain("Offline recognition of the Falcon memo.");
  });

  it("the guard does catch a request made from a worker thread of a child process (so the check above can fail)", async () => {
    const { stderr } = await runGuarded(`
      import { spawnSync } from "node:child_process";
      const source = "new (require('node:worker_threads').Worker)(\\"fetch('http://127.0.0.1:9/').catch(() => {})\\", { eval: true })";
      process.stderr.write(spawnSync(process.execPath, ["-e", source], { encoding: "utf8" }).stderr);
    `);
    expect(stderr).toContain("NETWORK ATTEMPT fetch http://127.0.0.1:9/");
  });
});
