import { describe, expect, it } from "vitest";
import { deletedWithIt } from "./delete-consequences";

describe("deletedWithIt", () => {
  it("names what goes with a conversation, in plain words", () => {
    expect(deletedWithIt({ reminders: 2, files: 1 })).toBe("2 reminders and 1 file are deleted with it.");
    expect(deletedWithIt({ reminders: 1, files: 0 })).toBe("1 reminder is deleted with it.");
    expect(deletedWithIt({ reminders: 0, files: 3 })).toBe("3 files are deleted with it.");
    expect(deletedWithIt({ reminders: 0, files: 0 })).toBeNull();
  });
});
