import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, onUnauthorized } from "./api-client";
import { apiUpload } from "./api-upload";

/** A stand-in XMLHttpRequest: records the request, then answers (or fails) as the test says. */
function fakeXhr(answer: { status: number; statusText?: string; body?: string } | "network-error") {
  const sent: { method: string; path: string; withCredentials: boolean; body: unknown }[] = [];
  class FakeXhr {
    status = 0;
    statusText = "";
    responseText = "";
    withCredentials = false;
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private method = "";
    private path = "";
    open(method: string, path: string) {
      this.method = method;
      this.path = path;
    }
    send(body: unknown) {
      sent.push({ method: this.method, path: this.path, withCredentials: this.withCredentials, body });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
      if (answer === "network-error") return this.onerror?.();
      this.status = answer.status;
      this.statusText = answer.statusText ?? "";
      this.responseText = answer.body ?? "";
      this.onload?.();
    }
  }
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("apiUpload", () => {
  it("posts the form with credentials, reports progress and answers the parsed reply", async () => {
    const sent = fakeXhr({ status: 201, statusText: "Created", body: '{"status":"success"}' });
    const form = new FormData();
    const progress: number[] = [];
    await expect(apiUpload("/api/upload", form, (fraction) => progress.push(fraction))).resolves.toEqual({
      status: 201,
      statusText: "Created",
      bodyText: '{"status":"success"}',
      data: { status: "success" },
    });
    expect(sent).toEqual([{ method: "POST", path: "/api/upload", withCredentials: true, body: form }]);
    expect(progress).toEqual([0.5]);
  });

  it("throws an ApiError on a non-2xx reply and reports a 401", async () => {
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);
    fakeXhr({ status: 415, statusText: "Unsupported Media Type", body: '{"error":"Unsupported File Type"}' });
    const error = await apiUpload("/api/upload", new FormData(), () => undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(415);
    expect((error as ApiError).serverMessage).toBe("Unsupported File Type");
    expect(listener).not.toHaveBeenCalled();
    fakeXhr({ status: 401, statusText: "Unauthorized" });
    await expect(apiUpload("/api/upload", new FormData(), () => undefined)).rejects.toThrow("401: Unauthorized");
    expect(listener).toHaveBeenCalledOnce();
    unsubscribe();
  });

  it("rejects with a TypeError when the network fails", async () => {
    fakeXhr("network-error");
    await expect(apiUpload("/api/upload", new FormData(), () => undefined)).rejects.toBeInstanceOf(TypeError);
  });
});
