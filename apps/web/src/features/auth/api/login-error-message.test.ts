import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { loginErrorMessage } from "./login-error-message";

describe("loginErrorMessage", () => {
  it("401 is the invalid-credentials message", () => {
    expect(loginErrorMessage(new ApiError(401, "Unauthorized", '{"error":"Invalid username or password"}'))).toBe("Login failed: Invalid username or password");
  });

  it("429 shows the server's text as is", () => {
    const body = '{"error":"Too many login attempts. Please wait a minute and try again."}';
    expect(loginErrorMessage(new ApiError(429, "Too Many Requests", body))).toBe("Too many login attempts. Please wait a minute and try again.");
  });

  it("other failures are prefixed", () => {
    expect(loginErrorMessage(new ApiError(500, "Internal Server Error", ""))).toBe("Login failed: 500: Internal Server Error");
    expect(loginErrorMessage(new ApiError(400, "Bad Request", '{"error":"Invalid request"}'))).toBe("Login failed: Invalid request");
    expect(loginErrorMessage(new TypeError("Failed to fetch"))).toBe("Login failed: Failed to fetch");
  });
});
