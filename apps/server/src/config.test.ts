import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has embedded defaults: 127.0.0.1:5000, ./data, demo account, no model", () => {
    const config = loadConfig({});
    expect(config.host).toBe("127.0.0.1");
    expect(config.port).toBe(5000);
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.files).toEqual({ dir: path.join(config.dataDir, "uploads"), shared: false });
    expect(config.demoUser).toEqual({ username: "demo", password: "sage-demo" });
    expect(config.llm.provider).toBe("none");
    expect(config.llm.chatModel).toBe("gemini-2.0-flash");
  });

  it("stores files in the folder SAGE_FILES_DIR names, which other processes may share", () => {
    expect(loadConfig({ SAGE_FILES_DIR: "/srv/sage-files" }).files).toEqual({ dir: "/srv/sage-files", shared: true });
  });

  it("runs on PostgreSQL only with the secret key and the files folder every process shares, and says so", () => {
    const url = "postgres://sage:pw@db.internal:5432/sage";
    const key = "c2FnZS10ZXN0LXNlY3JldC1rZXktMzItYnl0ZXMhISE=";
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(() => loadConfig({ SAGE_DATABASE_URL: url, SAGE_FILES_DIR: "/srv/sage-files" })).toThrow(/each needs the same SAGE_SECRET_KEY/);
    expect(() => loadConfig({ SAGE_DATABASE_URL: url, SAGE_SECRET_KEY: key })).toThrow(/SAGE_FILES_DIR/);
    expect(() => loadConfig({ SAGE_DATABASE_URL: "mysql://x", SAGE_SECRET_KEY: key, SAGE_FILES_DIR: "/srv" })).toThrow(
      /give a postgres:\/\/ connection string/,
    );
    expect(loadConfig({ SAGE_DATABASE_URL: url, SAGE_SECRET_KEY: key, SAGE_FILES_DIR: "/srv/sage-files" }).databaseUrl).toBe(url);
  });

  it("refuses to start on a non-loopback HOST without SAGE_PASSWORD, and says why", () => {
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/SAGE_PASSWORD is not set/);
    expect(loadConfig({ HOST: "0.0.0.0", SAGE_PASSWORD: "long-secret" }).host).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "::1" }).host).toBe("::1");
    expect(loadConfig({ HOST: "localhost" }).host).toBe("localhost");
  });

  it("takes a mailto: or https: push contact and refuses anything else with how to write one", () => {
    expect(loadConfig({}).pushContact).toBe("mailto:sage@localhost");
    expect(loadConfig({ SAGE_PUSH_CONTACT: "mailto:it@example.com" }).pushContact).toBe("mailto:it@example.com");
    expect(loadConfig({ SAGE_PUSH_CONTACT: "https://sage.example.com" }).pushContact).toBe("https://sage.example.com");
    for (const bad of ["it@example.com", "http://sage.example.com", "mailto:it"])
      expect(() => loadConfig({ SAGE_PUSH_CONTACT: bad }), bad).toThrow(/SAGE_PUSH_CONTACT: give a mailto: address or an https: page/);
  });

  it("reads SAGE_ALLOWED_HOSTS as names or addresses without a scheme or port", () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ SAGE_ALLOWED_HOSTS: " sage.example.com, .corp.example ,192.168.1.20,[fd00::20]," }).allowedHosts).toEqual([
      "sage.example.com",
      ".corp.example",
      "192.168.1.20",
      "[fd00::20]",
    ]);
    for (const bad of ["https://sage.example.com", "sage.example.com:8443", "sage example", "*.example.com"]) {
      expect(() => loadConfig({ SAGE_ALLOWED_HOSTS: bad }), bad).toThrow(/SAGE_ALLOWED_HOSTS: give host names or addresses without a scheme or port/);
    }
  });

  it("names the bad keys", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ SAGE_EMBEDDER: "magic" })).toThrow(/SAGE_EMBEDDER/);
  });

  it("picks Gemini when a key is set and an OpenAI-compatible server when only its URL is", () => {
    expect(loadConfig({ GEMINI_API_KEY: "k" }).llm.provider).toBe("gemini");
    expect(loadConfig({ SAGE_LLM_BASE_URL: "http://127.0.0.1:11434/v1" }).llm.provider).toBe("openai-compatible");
  });

  it("gives the document reader paths and locale only, never the model keys or the password", () => {
    const env = { PATH: "/usr/bin", HOME: "/home/sage", GEMINI_API_KEY: "k", SAGE_PASSWORD: "long-secret", SAGE_LLM_API_KEY: "k2" };
    expect(loadConfig(env).documentLimits).toEqual({
      memoryMb: 1024,
      timeoutMs: 600_000,
      maxTotalMs: 14_400_000,
      maxPages: 5000,
      // Issue 52 item 6: 100 attachments of one mail read, none larger than an upload.
      mail: { maxAttachments: 100, maxAttachmentBytes: 52_428_800 },
      keepWarm: true,
      env: { PATH: "/usr/bin", HOME: "/home/sage", MALLOC_ARENA_MAX: "1", MALLOC_MMAP_THRESHOLD_: "262144" },
    });
  });

  it("reads English and French by default, refuses an OCR language with no data, and takes one from SAGE_OCR_DATA_DIR", () => {
    expect(loadConfig({}).ocr).toEqual({ languages: ["eng", "fra"] });
    expect(() => loadConfig({ SAGE_OCR_LANGUAGES: "eng+xyz" })).toThrow(/SAGE_OCR_LANGUAGES: no text recognition data for "xyz"/);
    expect(() => loadConfig({ SAGE_OCR_LANGUAGES: "eng;rm -rf" })).toThrow(/SAGE_OCR_LANGUAGES/);
    const folder = mkdtempSync(path.join(tmpdir(), "sage-ocr-data-"));
    try {
      writeFileSync(path.join(folder, "xyz.traineddata"), "");
      expect(loadConfig({ SAGE_OCR_LANGUAGES: "eng+xyz", SAGE_OCR_DATA_DIR: folder }).ocr).toEqual({ languages: ["eng", "xyz"], dataDir: folder });
      // The document reader's processes get both, and nothing else of the server's environment beyond the basics.
      expect(loadConfig({ SAGE_OCR_LANGUAGES: "eng+xyz", SAGE_OCR_DATA_DIR: folder }).documentLimits.env).toMatchObject({
        SAGE_OCR_LANGUAGES: "eng+xyz",
        SAGE_OCR_DATA_DIR: folder,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
