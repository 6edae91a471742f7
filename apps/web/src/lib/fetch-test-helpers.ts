import { vi } from "vitest";

/** Replaces the global fetch with one answering `response`; undo with vi.unstubAllGlobals(). */
export function mockFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}
