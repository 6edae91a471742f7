// The "limit" for HTTP figures: a bare Fastify app answering from memory with the same JSON SAGE returns.
// GET /list -> the JSON file's contents; POST /append -> that list plus the posted message;
// POST /append/:key -> list `key` (the file's list at first) with each message posted to it, like a conversation.
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const list = JSON.parse(readFileSync(process.argv[2], "utf8"));
const app = Fastify({ logger: false });
app.get("/list", async () => list);
let nextId = 1_000_000;
app.post("/append", async (request) => [...list, { id: nextId++, conversationId: 1, ...request.body, createdAt: new Date().toISOString() }]);
const lists = new Map();
app.post("/append/:key", async (request) => {
  const key = Number(request.params.key);
  const grown = [...(lists.get(key) ?? list), { id: nextId++, conversationId: key, ...request.body, createdAt: new Date().toISOString() }];
  lists.set(key, grown);
  return grown;
});
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(app.server.address().port);
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
