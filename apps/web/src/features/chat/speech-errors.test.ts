import { describe, expect, it } from "vitest";
import { speechErrorText } from "./speech-errors";

describe("speechErrorText", () => {
  it("names denied microphones, silence, and any other code", () => {
    expect(speechErrorText("not-allowed")).toBe("Microphone access denied");
    expect(speechErrorText("no-speech")).toBe("No speech detected");
    expect(speechErrorText("network")).toBe("Error: network");
  });
});
