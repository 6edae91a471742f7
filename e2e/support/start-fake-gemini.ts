// Playwright webServer entry: the fake Gemini REST API, scripted by tests over /__fake/*.
import { startFakeGemini } from "@sage/testkit/fake-gemini";
import { FAKE_GEMINI_PORT } from "./ports.ts";

const fake = await startFakeGemini({ port: FAKE_GEMINI_PORT });
console.log(`fake Gemini listening on ${fake.baseUrl}`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
