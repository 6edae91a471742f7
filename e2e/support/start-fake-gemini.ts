// Playwright webServer entry: the fake Gemini REST API of one test worker (its port is the argument), scripted by
// that worker's tests over /__fake/*.
import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { FAKE_GEMINI_PORT } from "./ports.ts";

const fake = await startFakeGemini({ port: Number(process.argv[2] ?? FAKE_GEMINI_PORT) });
console.log(`fake Gemini listening on ${fake.baseUrl}`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
