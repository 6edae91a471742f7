import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { connectionLost, errorLine, networkCause } from "./mcp-failure.ts";

describe("errorLine", () => {
  it("finds Node's cause above its stack, not its closing version line", () => {
    const { stderr } = spawnSync(process.execPath, ["/nonexistent/sage-server.js"], { encoding: "utf8" });
    expect(stderr.trim().split("\n").at(-1)).toMatch(/^Node\.js v\d/); // what was shown before
    expect(errorLine(stderr)).toBe("Error: Cannot find module '/nonexistent/sage-server.js'");
  });

  it("finds Python's error at the end of its traceback, npm's first error, and else the last plain line", () => {
    const python = [
      "Traceback (most recent call last):",
      '  File "/srv/server.py", line 1, in <module>',
      "    import mcp",
      "ModuleNotFoundError: No module named 'mcp'",
    ].join("\n");
    expect(errorLine(python)).toBe("ModuleNotFoundError: No module named 'mcp'");
    const npm = [
      "npm warn exec The following package was not found and will be installed: x",
      "npm error code E404",
      "npm error 404 Not Found - GET https://registry.npmjs.org/x",
    ].join("\n");
    expect(errorLine(npm)).toBe("npm error code E404");
    expect(errorLine("Starting the server\nListening on stdio\n")).toBe("Listening on stdio");
    expect(errorLine("  \n")).toBeUndefined();
  });
});

describe("networkCause", () => {
  it("says a refused connection in words, from undici's hidden cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const failure = await fetch(`http://127.0.0.1:${port}/mcp`).catch((error: unknown) => error);
    expect((failure as Error).message).toBe("fetch failed");
    expect(connectionLost(failure)).toBe("connection refused");
    expect(networkCause(failure)).toBe("connection refused");
  });

  it("gives the status a server answered, and a cut stream as closed", () => {
    expect(networkCause(Object.assign(new Error("Streamable HTTP error: Error POSTing to endpoint: Unauthorized"), { code: 401 }))).toBe(
      "the server answered HTTP 401",
    );
    expect(networkCause(new Error("SSE error: Non-200 status code (404)"))).toBe("the server answered HTTP 404");
    expect(connectionLost(new Error("SSE stream disconnected: TypeError: terminated"))).toBe("the connection closed");
    expect(connectionLost(new Error("Invalid JSON"))).toBeUndefined();
  });
});
