import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SafeFetchError, isBlockedAddress, safeFetch } from "./safe-fetch.ts";

let server: Server;
let origin: string;
let host: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/page") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return response.end("<h1>Hello</h1>");
    }
    if (request.url === "/to-localhost") {
      response.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/page` });
      return response.end();
    }
    if (request.url === "/to-metadata") {
      response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" });
      return response.end();
    }
    if (request.url === "/loop") {
      response.writeHead(302, { location: "/loop" });
      return response.end();
    }
    if (request.url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      return response.end("x".repeat(5000));
    }
    if (request.url === "/hang") return; // never answers
    response.writeHead(404);
    response.end("missing");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = `http://${host}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(SafeFetchError);
      return error as SafeFetchError;
    },
  );

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::a00:1",
    "64:ff9b:1:abcd::1",
  ])("refuses %s", (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(["8.8.8.8", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b:2::1"])("allows %s", (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  );
});

describe("safeFetch", () => {
  it("fetches a page when the operator allows private addresses", async () => {
    const result = await safeFetch(`${origin}/page`, { allowPrivate: true });
    expect(result.status).toBe(200);
    expect(result.contentType).toContain("text/html");
    expect(result.body.toString()).toBe("<h1>Hello</h1>");
  });

  it("refuses loopback, metadata and IPv4-mapped literals, and localhost by name", async () => {
    for (const url of [`${origin}/page`, "http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]/", "http://localhost/", "http://[::1]:80/"]) {
      expect((await refusal(safeFetch(url, { allowPrivate: false }))).code).toBe("blocked_address");
    }
  });

  it("refuses a host name that resolves to a loopback address", async () => {
    const aliases = readFileSync("/etc/hosts", "utf8")
      .split("\n")
      .filter((line) => line.startsWith("127."))
      .flatMap((line) => line.split(/\s+/).slice(1))
      .filter((name) => name && name !== "localhost" && !name.endsWith(".localhost"));
    const name = aliases[0] ?? "localhost.";
    const error = await refusal(safeFetch(`http://${name}:${(server.address() as AddressInfo).port}/page`, { allowPrivate: false }));
    expect(error.code).toBe("blocked_address");
  });

  it("checks every redirect hop, even from a trusted first host", async () => {
    const options = { allowPrivate: false, allowHosts: [host] };
    expect((await safeFetch(`${origin}/page`, options)).status).toBe(200);
    expect((await refusal(safeFetch(`${origin}/to-localhost`, options))).code).toBe("blocked_address");
    expect((await refusal(safeFetch(`${origin}/to-metadata`, options))).code).toBe("blocked_address");
  });

  it("stops after the redirect limit, past the size cap, at the timeout, and on HTTP errors", async () => {
    expect((await refusal(safeFetch(`${origin}/loop`, { allowPrivate: true, maxRedirects: 3 }))).message).toBe("Too many redirects (more than 3)");
    expect((await refusal(safeFetch(`${origin}/big`, { allowPrivate: true, maxBytes: 1000 }))).code).toBe("too_large");
    expect((await refusal(safeFetch(`${origin}/hang`, { allowPrivate: true, timeoutMs: 300 }))).code).toBe("timeout");
    expect((await refusal(safeFetch(`${origin}/nothing`, { allowPrivate: true }))).message).toBe("The site answered 404");
  });

  it("refuses non-http schemes and malformed URLs", async () => {
    expect((await refusal(safeFetch("file:///etc/passwd", { allowPrivate: true }))).code).toBe("invalid_url");
    expect((await refusal(safeFetch("not a url", { allowPrivate: true }))).code).toBe("invalid_url");
  });
});
