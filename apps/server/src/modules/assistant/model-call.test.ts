import { describe, expect, it } from "vitest";
import { ProviderError } from "../../providers/llm/llm.ts";
import { modelFailureReason } from "./model-call.ts";

describe("modelFailureReason (issue 52 item 13)", () => {
  it("names the time limit, the quota, a refusal, a service out of reach, and the service's own error", () => {
    // AbortSignal.timeout's reason, as fetch rejects with it when the 2-minute limit is reached.
    expect(modelFailureReason(new DOMException("The operation was aborted due to timeout", "TimeoutError"))).toBe("timeout");
    expect(modelFailureReason(new ProviderError("gemini", 429, "Resource has been exhausted"))).toBe("quota");
    expect(modelFailureReason(new ProviderError("gemini", 403, "API key not valid"))).toBe("refused");
    expect(modelFailureReason(new ProviderError("gemini", 400, "User location is not supported"))).toBe("refused");
    expect(modelFailureReason(new ProviderError("gemini", undefined, "Cannot connect to API: connect ECONNREFUSED", true))).toBe("unreachable");
    expect(modelFailureReason(new ProviderError("gemini", 503, "overloaded"))).toBe("failed");
    expect(modelFailureReason(new ProviderError("gemini", undefined, "No output generated"))).toBe("failed");
  });
});
