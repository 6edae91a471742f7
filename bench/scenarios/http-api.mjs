import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { figure } from "../lib/figure.mjs";
import { load } from "../lib/load.mjs";
import { startChild, startSage } from "../lib/server.mjs";

const BARE = fileURLToPath(new URL("../lib/bare-server.mjs", import.meta.url));

/** GET /api/conversations (100 conversations) and POST messages, each beside a bare Fastify route. */
export async function httpApi({ quick }) {
  const durationSec = quick ? 3 : 10;
  const connections = 50;
  const sage = await startSage({ label: "http" });
  const cookie = await sage.login();
  const headers = { cookie, "content-type": "application/json" };
  const post = (url, body) => fetch(`${sage.url}${url}`, { method: "POST", headers, body: JSON.stringify(body) }).then((r) => r.json());

  for (let i = 0; i < 100; i++) await post("/api/conversations", { name: `Project ${i} planning notes` });
  const listJson = await (await fetch(`${sage.url}/api/conversations`, { headers })).json();
  const dir = sage.dataDir;
  writeFileSync(path.join(dir, "list.json"), JSON.stringify(listJson));
  const figures = [];

  // GET /api/conversations
  const bareList = await startChild(BARE, [path.join(dir, "list.json")]);
  const limitList = await load({ url: `${bareList.url}/list`, connections, durationSec });
  await bareList.stop();
  const sageList = await load({ url: `${sage.url}/api/conversations`, connections, durationSec, headers: { cookie } });
  const params = { connections, durationSec, conversations: listJson.length };
  figures.push(
    figure({
      name: "http.conversations.list.rps",
      value: sageList.reqPerSec,
      unit: "req/s",
      limit: limitList.reqPerSec,
      target: ">= 0.5 of limit",
      params: { ...params, errors: sageList.errors, non2xx: sageList.non2xx },
    }),
  );
  figures.push(
    figure({ name: "http.conversations.list.p99", value: sageList.p99Ms, unit: "ms", limit: limitList.p99Ms, better: "lower", target: "<= 25 ms", params }),
  );

  // POST /api/conversations/{id}/messages: 300 conversations with 20 messages each, appended to in turn.
  // The bare route keeps 300 such lists in memory and appends to them the same way, so both answer the
  // same JSON for the same request (lists grow during the run: 3,000 appends/s make each 10 longer a second).
  const targets = [];
  for (let i = 0; i < 300; i++) {
    const conversation = await post("/api/conversations", { name: `Bench ${i}` });
    for (let m = 0; m < 20; m++)
      await post(`/api/conversations/${conversation.id}/messages`, {
        role: m % 2 ? "model" : "user",
        content: `Message ${m}: draft the quarterly update for the board, with figures.`,
      });
    targets.push(conversation.id);
  }
  writeFileSync(
    path.join(dir, "messages.json"),
    JSON.stringify(await (await fetch(`${sage.url}/api/conversations/${targets[0]}/messages`, { headers })).json()),
  );
  const bareMessages = await startChild(BARE, [path.join(dir, "messages.json")]);
  const body = JSON.stringify({ role: "user", content: "Remind me to send the board pack on Friday." });
  let bareNext = 0;
  const limitPost = await load({
    url: `${bareMessages.url}/append/0`,
    connections,
    durationSec,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    setupRequest: (request) => ({ ...request, path: `/append/${targets[bareNext++ % targets.length]}` }),
  });
  await bareMessages.stop();
  let next = 0;
  const sagePost = await load({
    url: `${sage.url}/api/conversations/${targets[0]}/messages`,
    connections,
    durationSec,
    method: "POST",
    headers,
    body,
    setupRequest: (request) => ({ ...request, path: `/api/conversations/${targets[next++ % targets.length]}/messages` }),
  });
  figures.push(
    figure({
      name: "http.messages.append.rps",
      value: sagePost.reqPerSec,
      unit: "req/s",
      limit: limitPost.reqPerSec,
      target: ">= 0.4 of limit",
      params: { connections, durationSec, conversations: targets.length, seededMessagesEach: 20, errors: sagePost.errors, non2xx: sagePost.non2xx },
    }),
  );

  await sage.stop();
  return figures;
}
