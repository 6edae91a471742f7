import { writeFileSync } from "node:fs";
import path from "node:path";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, describe, expect, it } from "vitest";
import { readMcpConfig } from "./mcp-config.ts";

const temp = makeTempDir();
afterAll(() => temp.remove());

function file(content: string) {
  const where = path.join(temp.dir, `mcp-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(where, content);
  return where;
}

describe("readMcpConfig", () => {
  it("reads stdio and HTTP entries in the ecosystem's format", () => {
    const config = readMcpConfig(
      file(
        JSON.stringify({
          mcpServers: {
            files: { command: "npx", args: ["-y", "server"], env: { A: "1" } },
            crm: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t" } },
          },
        }),
      ),
    );
    expect(config).toEqual({
      servers: [
        { name: "files", transport: "stdio", stdio: { command: "npx", args: ["-y", "server"], env: { A: "1" } } },
        { name: "crm", transport: "http", http: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t" } } },
      ],
    });
  });

  it("keeps a bad entry with its error beside the good ones", () => {
    const config = readMcpConfig(file(JSON.stringify({ mcpServers: { broken: { args: [] }, badUrl: { url: "not a url" }, ok: { command: "node" } } })));
    expect(config.servers.map((server) => [server.name, "error" in server])).toEqual([
      ["broken", true],
      ["badUrl", true],
      ["ok", false],
    ]);
  });

  it("a missing file is no servers; a file that is not JSON, or has no mcpServers, says so", () => {
    expect(readMcpConfig(path.join(temp.dir, "absent.json"))).toEqual({ servers: [] });
    expect(readMcpConfig(file("{ nope")).error).toMatch(/is not valid JSON/);
    expect(readMcpConfig(file("{}")).error).toMatch(/needs an "mcpServers" object/);
  });
});
