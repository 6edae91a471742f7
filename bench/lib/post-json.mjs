import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./server.mjs";

// undici's own request() over a keep-alive pool: fetch() adds 0.2-0.4 ms of client-side stream plumbing per
// call on loopback (measured beside a bare Fastify route: p50 0.35-0.55 ms vs 0.10-0.17 ms), which is the
// client's cost, not SAGE's, and at 10k chunks is half the limit.
const { request } = createRequire(path.join(ROOT, "apps/server/package.json"))("undici");

/** POSTs a JSON body and answers the JSON reply; anything but a 200 throws with the server's words. */
export async function postJson(url, cookie, body) {
  const response = await request(url, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(body) });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${await response.body.text()}`);
  return response.body.json();
}
