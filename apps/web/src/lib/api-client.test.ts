import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError, apiRequest, getJson, onUnauthorized } from "./api-client";
import { mockFetch } from "./fetch-test-helpers";

afterEach(() => vi.unstubAllGlobals());

describe("getJson", () => {
  it("reads JSON with credentials included", async () => {
    const fetchMock = mockFetch(Response.json([{ id: 1 }]));
    await expect(getJson("/api/things")).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock).toHaveBeenCalledWith("/api/things", { credentials: "include" });
  });

  it("checks the reply with a schema", async () => {
    mockFetch(Response.json({ id: "nope" }));
    await expect(getJson("/api/thing", z.object({ id: z.number() }))).rejects.toThrow();
  });

  it("yields null on 401 and reports the lost session", async () => {
    mockFetch(new Response("", { status: 401 }));
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);
    await expect(getJson("/api/auth/me")).resolves.toBeNull();
    expect(listener).toHaveBeenCalledOnce();
    unsubscribe();
  });

  it("throws 'status: body' on other failures", async () => {
    mockFetch(new Response('{"error":"boom"}', { status: 500, statusText: "Internal Server Error" }));
    await expect(getJson("/api/x")).rejects.toThrow('500: {"error":"boom"}');
  });

  it("throws 'status: statusText' when the body is empty", async () => {
    mockFetch(new Response("", { status: 404, statusText: "Not Found" }));
    await expect(getJson("/api/x")).rejects.toThrow("404: Not Found");
  });
});

describe("apiRequest", () => {
  it("sends a JSON body with a JSON content-type", async () => {
    const fetchMock = mockFetch(Response.json({ ok: true }));
    await apiRequest("/api/things", { method: "POST", body: { name: "a" } });
    expect(fetchMock).toHaveBeenCalledWith("/api/things", {
      method: "POST",
      credentials: "include",
      signal: undefined,
      headers: { "Content-Type": "application/json" },
      body: '{"name":"a"}',
    });
  });

  it("sends no content-type without a body and defaults to GET", async () => {
    const fetchMock = mockFetch(new Response(null, { status: 204 }));
    await expect(apiRequest("/api/things/1")).resolves.toBeUndefined();
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe("GET");
    expect(init?.headers).toBeUndefined();
    expect(init?.body).toBeUndefined();
  });

  it("throws an ApiError with the status and the server's error field", async () => {
    mockFetch(new Response('{"error":"Too many login attempts"}', { status: 429, statusText: "Too Many Requests" }));
    const error = await apiRequest("/api/auth/login", { method: "POST", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toBe('429: {"error":"Too many login attempts"}');
    expect((error as ApiError).serverMessage).toBe("Too many login attempts");
  });

  it("reports a 401 unless told not to", async () => {
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);
    mockFetch(new Response("", { status: 401 }));
    await expect(apiRequest("/api/x", { method: "DELETE" })).rejects.toThrow("401");
    expect(listener).toHaveBeenCalledOnce();
    mockFetch(new Response("", { status: 401 }));
    await expect(apiRequest("/api/auth/login", { method: "POST", notifyUnauthorized: false })).rejects.toThrow();
    expect(listener).toHaveBeenCalledOnce();
    unsubscribe();
  });
});
