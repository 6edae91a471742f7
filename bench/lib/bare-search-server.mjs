// Child process of the search scenario: the least HTTP server around the same search. A bare Fastify app whose
// POST /api/search calls the retrieval service in its own process (the bench's in-process service, on the same
// store and saved index), with no session, origin check, validation or hooks. It pays what any server on this
// machine pays for the same search: the loopback round trip, Node's HTTP objects, the reply, and the caches the
// search work leaves cold. `node --import tsx bench/lib/bare-search-server.mjs <dataDir> <dimensions>`; prints its port.
import Fastify from "fastify";
import { openInProcess } from "./search-limit.mjs";

const [dataDir, dimensions] = process.argv.slice(2);
const local = await openInProcess(dataDir, Number(dimensions));
await local.warm();
const app = Fastify({ logger: false });
app.post("/api/search", async (request) => local.search(request.body.query));
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(app.server.address().port);
process.on("SIGTERM", () =>
  app
    .close()
    .then(() => local.close())
    .then(() => process.exit(0)),
);
