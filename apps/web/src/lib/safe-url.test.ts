import { describe, expect, it } from "vitest";
import { safeUrl } from "./safe-url";

describe("safeUrl", () => {
  it("keeps http, https, irc, ircs, mailto and xmpp links", () => {
    for (const url of [
      "http://a.example/",
      "HTTPS://b.example/x?y=1",
      "irc://irc.example/chan",
      "ircs://irc.example/",
      "mailto:ann@example.com",
      "xmpp:ann@example.com",
    ]) {
      expect(safeUrl(url)).toBe(url);
    }
  });
  it("strips every other scheme and scheme-less links", () => {
    for (const url of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:x",
      "file:///etc/passwd",
      "/relative",
      "//evil.example",
      "ftp://x",
    ]) {
      expect(safeUrl(url)).toBe("");
    }
  });
});
