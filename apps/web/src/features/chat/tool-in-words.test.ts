import { describe, expect, it } from "vitest";
import { toolInWords, toolOutcome } from "./tool-in-words";

describe("toolInWords", () => {
  it("names an external tool by its server and what it does", () => {
    expect(toolInWords("travel__flight_status")).toBe("Travel: flight status");
    expect(toolInWords("notes__write_note")).toBe("Notes: write note");
  });
  it("names the assistant's own tools in words", () => {
    expect(toolInWords("createReminder")).toBe("Create a reminder");
    expect(toolInWords("deleteMail")).toBe("Move an e-mail to Trash");
    expect(toolInWords("archiveMail")).toBe("Archive an e-mail");
    expect(toolInWords("shareFile")).toBe("Share a file by link");
    expect(toolInWords("cancelEvent")).toBe("Cancel a calendar event");
    expect(toolInWords("deleteFile")).toBe("Delete a knowledge base file");
    expect(toolInWords("lookUpWeather")).toBe("Look up weather");
  });
});

describe("toolOutcome", () => {
  it("says what came back in a few words", () => {
    expect(toolOutcome({ result: { success: true, result: "LX318 lands at 14:05\nGate B3" } })).toBe("LX318 lands at 14:05");
    expect(toolOutcome({ result: { success: false, error: "Server down" } })).toBe("failed: Server down");
    expect(toolOutcome({ result: { success: false }, approval: { answer: "declined" } })).toBe("declined, not run");
    expect(toolOutcome({ result: { id: 4 } })).toBe("done");
  });
});
