import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { serverMessage } from "./server-message";
import { filenameFrom } from "./vector-database";

describe("filenameFrom", () => {
  it("reads the filename from content-disposition and falls back to the spec's default", () => {
    expect(filenameFrom('attachment; filename="backup-2025.zip"')).toBe("backup-2025.zip");
    expect(filenameFrom("attachment; filename*=UTF-8''my%20backup.zip")).toBe("my backup.zip");
    expect(filenameFrom(null)).toBe("vector_db_backup.zip");
    expect(filenameFrom("attachment")).toBe("vector_db_backup.zip");
  });
});

describe("serverMessage", () => {
  it("prefers the body's message, then its error, then the fallback", () => {
    expect(serverMessage(new ApiError(502, "Bad Gateway", '{"message":"quota exceeded","error":"x"}'), "fallback")).toBe("quota exceeded");
    expect(serverMessage(new ApiError(400, "Bad Request", '{"error":"Invalid File Format: nope"}'), "fallback")).toBe("Invalid File Format: nope");
    expect(serverMessage(new ApiError(500, "Internal Server Error", "<html>"), "Failed to get response from Gemini")).toBe("Failed to get response from Gemini");
  });
});
