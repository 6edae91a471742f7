// The fake Gemini's own process (startFakeGeminiProcess): takes replies to script, answers "structured" with how many
// structured-output requests it has seen (and the path and body of the first), ends on "close".
import { startFakeGemini, type FakeReply } from "@sage/testkit/fake-gemini";

const fake = await startFakeGemini();
process.on("message", async (request: "structured" | "close" | { script: FakeReply[] }) => {
  if (request === "structured") {
    const structured = fake.requests.filter((each) => each.body?.generationConfig?.responseSchema);
    process.send!({ structured: structured.length, first: structured[0] ? { path: structured[0].path, body: structured[0].body } : null });
    // Their bodies are not kept: a bench's thousands of requests would only grow this process.
    fake.requests.length = 0;
  } else if (request === "close") {
    await fake.close();
    process.exit(0);
  } else {
    fake.script(...request.script);
    process.send!({ scripted: request.script.length });
  }
});
process.send!({ baseUrl: fake.baseUrl });
