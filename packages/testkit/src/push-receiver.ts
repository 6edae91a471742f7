import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One message a push service would have accepted: its VAPID claims and the decrypted payload. */
export interface ReceivedPush {
  path: string;
  ttl: string | undefined;
  /** The VAPID JWT's claims, after its ES256 signature was checked against the `k=` public key. */
  claims: { aud: string; exp: number; sub: string };
  vapidPublicKey: string;
  payload: string;
}

export interface PushReceiver {
  /** A subscription as a browser's PushSubscription.toJSON() gives it, pointing at this receiver. */
  subscription(name?: string): { endpoint: string; keys: { p256dh: string; auth: string } };
  received: ReceivedPush[];
  /** Makes the next messages to this path answer the status (410: the subscription is gone). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 / RFC 8188: decrypts an aes128gcm Web Push body with the user agent's keys. */
export function decryptPush(body: Buffer, ua: { privateKey: Buffer; publicKey: Buffer; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (records.length > recordSize) throw new Error("more than one record: SAGE's payloads fit in one");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(ua.privateKey);
  const shared = ecdh.computeSecret(serverKey);
  const prkKey = hmac(ua.auth, shared);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from("WebPush: info\0"), ua.publicKey, serverKey, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const plain = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("the last record does not end with the 0x02 delimiter");
  return plain.subarray(0, end).toString("utf8");
}

/** Checks `vapid t=<jwt>, k=<key>` (RFC 8292): an ES256 JWT signed by the key, for this receiver's origin. */
function readVapid(header: string | undefined, origin: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [token, key] = [match[1]!, match[2]!];
  const [head, body, signature] = token.split(".");
  const point = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  if (!verify("sha256", Buffer.from(`${head}.${body}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url")))
    throw new Error("the VAPID signature does not verify");
  const claims = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as ReceivedPush["claims"];
  if (claims.aud !== origin) throw new Error(`the VAPID audience is ${claims.aud}, not ${origin}`);
  if (claims.exp * 1000 < Date.now()) throw new Error("the VAPID token has expired");
  return { claims, vapidPublicKey: key };
}

/**
 * A push service on 127.0.0.1 for tests: it hands out subscriptions with real keys, and for each message checks the
 * VAPID signature and the aes128gcm encoding as a browser's push service and the browser would, then keeps the
 * decrypted payload. A message it cannot read is answered 400 and kept out of `received`.
 */
export async function startPushReceiver(): Promise<PushReceiver> {
  const devices = new Map<string, { privateKey: Buffer; publicKey: Buffer; auth: Buffer }>();
  const answers = new Map<string, number>();
  const received: ReceivedPush[] = [];
  let origin = "";
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const path = request.url ?? "/";
      try {
        const device = devices.get(path);
        if (!device) throw new Error(`no subscription at ${path}`);
        if (request.headers["content-encoding"] !== "aes128gcm") throw new Error(`content-encoding ${request.headers["content-encoding"]}`);
        const status = answers.get(path);
        if (status) {
          response.writeHead(status).end();
          return;
        }
        const vapid = readVapid(request.headers.authorization, origin);
        received.push({ path, ttl: request.headers.ttl as string | undefined, ...vapid, payload: decryptPush(Buffer.concat(parts), device) });
        response.writeHead(201).end();
      } catch (error) {
        response.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    subscription(name = randomBytes(6).toString("hex")) {
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(`/push/${name}`, { privateKey: ecdh.getPrivateKey(), publicKey, auth });
      return { endpoint: `${origin}/push/${name}`, keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") } };
    },
    received,
    answer: (path, status) => void answers.set(path, status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
