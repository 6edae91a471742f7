import { isIP } from "node:net";
import webpush from "web-push";
import { isBlockedAddress, loadGuardedFetch } from "../../http/safe-fetch.ts";

/** A browser's subscription: the push service's endpoint and the keys its payloads are encrypted to. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** "sent"; "gone" when the push service says the subscription no longer exists (404/410); "failed" otherwise. */
export type PushResult = "sent" | "gone" | "failed";

export const generateVapidKeys = (): VapidKeys => webpush.generateVAPIDKeys();

/**
 * Whether a push endpoint may be posted to: https on a public address, unless the operator allows private
 * addresses (SAGE_FETCH_ALLOW_PRIVATE, which tests use for their local receiver). Names are checked again on the
 * address they resolve to when connecting.
 */
export function pushEndpointAllowed(endpoint: string, allowPrivate: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (allowPrivate) return url.protocol === "https:" || url.protocol === "http:";
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (url.protocol !== "https:" || host === "localhost" || host.endsWith(".localhost")) return false;
  return !(isIP(host) && isBlockedAddress(host));
}

/**
 * Sends Web Push messages (RFC 8030, payloads encrypted per RFC 8291, VAPID per RFC 8292): the web-push package
 * builds the encrypted request, and it is posted through SAGE's guarded fetch so an endpoint cannot reach the
 * server's own network.
 */
export function createPushSender(options: { keys: VapidKeys; subject: string; allowPrivate: boolean; timeoutMs?: number }) {
  return {
    async send(target: PushTarget, payload: string, ttlSeconds = 3600): Promise<PushResult> {
      if (!pushEndpointAllowed(target.endpoint, options.allowPrivate)) return "gone";
      const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        vapidDetails: { subject: options.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
        TTL: ttlSeconds,
        contentEncoding: "aes128gcm",
      });
      const { fetch, guarded, open } = await loadGuardedFetch();
      try {
        const response = await fetch(request.endpoint, {
          method: "POST",
          headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
          body: request.body as Buffer,
          dispatcher: options.allowPrivate ? open : guarded,
          redirect: "manual",
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        if (response.status === 404 || response.status === 410) return "gone";
        return response.ok ? "sent" : "failed";
      } catch {
        return "failed";
      }
    },
  };
}

export type PushSender = ReturnType<typeof createPushSender>;
