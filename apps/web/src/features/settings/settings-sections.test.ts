import { describe, expect, it } from "vitest";
import { parseSettingsSection } from "./settings-sections";

describe("parseSettingsSection", () => {
  it("defaults to the knowledge base", () => {
    expect(parseSettingsSection(null)).toBe("knowledge-base");
    expect(parseSettingsSection("nope")).toBe("knowledge-base");
  });
  it("accepts the user preferences section", () => {
    expect(parseSettingsSection("user-preferences")).toBe("user-preferences");
    expect(parseSettingsSection("memory")).toBe("memory");
  });
  it("accepts the tools section", () => {
    expect(parseSettingsSection("tools")).toBe("tools");
    expect(parseSettingsSection("accounts")).toBe("accounts");
    expect(parseSettingsSection("channels")).toBe("channels");
    expect(parseSettingsSection("schedules")).toBe("schedules");
    expect(parseSettingsSection("commitments")).toBe("commitments");
  });
});
