import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";

/** The key file in the data folder, made on first use when SAGE_SECRET_KEY is not set (decision 030). */
export const SECRET_KEY_FILE = "secret.key";
const VERSION = "v1";

/**
 * Encrypts account secrets (passwords, tokens) with AES-256-GCM under a key kept outside the database, so a copy of
 * sage.db alone (or a backup of it) reveals none. Each value gets its own random nonce; the tag makes a changed or
 * foreign value fail to open instead of yielding garbage.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or null when the value was sealed under another key or was changed. */
  open(sealed: string): string | null;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("the secret key must be 32 bytes");
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, nonce.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
    },
    open(sealed) {
      const [version, nonce, tag, body] = sealed.split(":");
      if (version !== VERSION || !nonce || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
        decipher.setAuthTag(Buffer.from(tag, "base64"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

/** The configured key, or the data folder's key file (made with 32 random bytes, readable by the owner only). */
export function loadSecretKey(dataDir: string, configured: Buffer | null): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = randomBytes(32);
  try {
    // "wx": two starts racing never write two different keys.
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, key.toString("base64") + "\n");
    } finally {
      closeSync(fd);
    }
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(file);
    throw error;
  }
}

function readKeyFile(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key; restore it from a copy, or move it away to make a new one`);
  return key;
}
