// The fake embedder's own process (startFakeEmbedderProcess): answers "calls" with the calls seen, ends on "close".
import { startFakeEmbedder } from "./fake-embedder.mjs";

const fake = await startFakeEmbedder(JSON.parse(process.argv[2] ?? "{}"));
process.on("message", async (request) => {
  if (request === "calls") process.send({ calls: fake.calls });
  if (request === "close") {
    await fake.close();
    process.exit(0);
  }
});
process.send({ origin: fake.origin });
