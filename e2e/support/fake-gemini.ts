import { fakeGeminiClient } from "@sage/testkit/fake-gemini";
import { FAKE_GEMINI_ORIGIN } from "./ports.ts";

/** The fake Gemini server started by Playwright's webServer; script replies before driving the UI. */
export const fakeGemini = fakeGeminiClient(FAKE_GEMINI_ORIGIN);
