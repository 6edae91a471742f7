import { describe, expect, it } from "vitest";
import { ApiError } from "./api-client";
import { errorMessage } from "./error-message";

const failed = (status: number, statusText: string, body: string) => new ApiError(status, statusText, body);

describe("errorMessage", () => {
  it("reads the body's error field, else the fallback; other errors show their own message", () => {
    expect(errorMessage(failed(400, "Bad Request", '{"error":"Title is required","code":"invalid"}'), { fallback: "Failed to create reminder" })).toBe(
      "Title is required",
    );
    expect(errorMessage(failed(500, "Internal Server Error", "<html>"), { fallback: "Failed to create reminder" })).toBe("Failed to create reminder");
    expect(errorMessage(new TypeError("Failed to fetch"), { fallback: "Failed to retry" })).toBe("Failed to fetch");
    expect(errorMessage("weird", { fallback: "Unknown error" })).toBe("Unknown error");
  });

  it("prefers the body's message, then its error, then the fallback (the test pages and vector actions)", () => {
    const options = { fields: ["message", "error"] } as const;
    expect(errorMessage(failed(502, "Bad Gateway", '{"message":"quota exceeded","error":"x"}'), { ...options, fallback: "fallback" })).toBe("quota exceeded");
    expect(errorMessage(failed(400, "Bad Request", '{"error":"Invalid File Format: nope"}'), { ...options, fallback: "fallback" })).toBe(
      "Invalid File Format: nope",
    );
    expect(errorMessage(failed(500, "Internal Server Error", "<html>"), { ...options, fallback: "Failed to get response from Gemini" })).toBe(
      "Failed to get response from Gemini",
    );
  });

  it("without the field: the status text (knowledge calls), the raw body, or the full message", () => {
    const error = failed(502, "Bad Gateway", "upstream down");
    expect(errorMessage(error, { fallback: "Failed to rename item", orElse: "statusText" })).toBe("Bad Gateway");
    expect(errorMessage(failed(502, "", ""), { fallback: "Failed to rename item", orElse: "statusText" })).toBe("Failed to rename item");
    expect(errorMessage(error, { fallback: "", orElse: "bodyText" })).toBe("upstream down");
    expect(errorMessage(error, { fallback: "", orElse: "fullMessage" })).toBe("502: upstream down");
    expect(errorMessage(failed(400, "Bad Request", '{"error":"Name is required"}'), { fallback: "", fields: [], orElse: "fullMessage" })).toBe(
      '400: {"error":"Name is required"}',
    );
  });

  it("can show the fallback for anything but a server's error field (the reminder forms)", () => {
    const options = { fallback: "Failed to create reminder", otherErrors: "fallback" } as const;
    expect(errorMessage(new TypeError("Failed to fetch"), options)).toBe("Failed to create reminder");
    expect(errorMessage(failed(400, "Bad Request", '{"error":"Due date is required"}'), options)).toBe("Due date is required");
  });

  it("ignores empty fields and fields that are not text", () => {
    expect(errorMessage(failed(400, "Bad Request", '{"error":"","message":"m"}'), { fallback: "f" })).toBe("f");
    expect(errorMessage(failed(400, "Bad Request", '{"error":{"nested":true},"message":"m"}'), { fallback: "f", fields: ["error", "message"] })).toBe("m");
  });
});
