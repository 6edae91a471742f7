import { describe, expect, it } from "vitest";
import { createBraveSearch } from "./brave.ts";
import { createWebSearch } from "./create-web-search.ts";
import { createSearxngSearch } from "./searxng.ts";
import { createTavilySearch } from "./tavily.ts";

function stubFetch(body: unknown, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, statusText: status === 200 ? "OK" : "Too Many Requests" });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

describe("web search backends", () => {
  it("SearXNG asks for JSON and keeps only http(s) results up to the limit", async () => {
    const { calls, fetchImpl } = stubFetch({
      results: [
        { title: "A", url: "https://a.example/", content: "alpha" },
        { title: "Bad", url: "javascript:alert(1)", content: "x" },
        { title: "B", url: "http://b.example/", content: "beta" },
        { title: "C", url: "https://c.example/", content: "gamma" },
      ],
    });
    const results = await createSearxngSearch({ baseUrl: "http://searx.local/", fetch: fetchImpl }).search("q w", { limit: 2 });
    expect(results).toEqual([
      { title: "A", url: "https://a.example/", snippet: "alpha" },
      { title: "B", url: "http://b.example/", snippet: "beta" },
    ]);
    expect(calls[0]!.url).toBe("http://searx.local/search?q=q+w&format=json");
  });

  it("Tavily posts the query with a bearer key", async () => {
    const { calls, fetchImpl } = stubFetch({ results: [{ title: "T", url: "https://t.example/", content: "tee" }] });
    expect(await createTavilySearch({ apiKey: "tv-key", fetch: fetchImpl }).search("q", { limit: 5 })).toEqual([
      { title: "T", url: "https://t.example/", snippet: "tee" },
    ]);
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer tv-key");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ query: "q", max_results: 5 });
  });

  it("Brave reads web.results and reports HTTP failures clearly", async () => {
    const ok = stubFetch({ web: { results: [{ title: "Br", url: "https://br.example/", description: "desc" }] } });
    expect(await createBraveSearch({ apiKey: "k", fetch: ok.fetchImpl }).search("q", { limit: 3 })).toEqual([
      { title: "Br", url: "https://br.example/", snippet: "desc" },
    ]);
    const limited = stubFetch({}, 429);
    await expect(createBraveSearch({ apiKey: "k", fetch: limited.fetchImpl }).search("q", { limit: 3 })).rejects.toThrow(
      "Brave Search answered 429 Too Many Requests",
    );
  });
});

describe("createWebSearch", () => {
  const base = { kind: "auto" as const };
  it("prefers Gemini grounding with Gemini, then SearXNG, Tavily, Brave; none without any", () => {
    expect(createWebSearch(base, "gemini").kind).toBe("gemini");
    const searx = createWebSearch({ ...base, searxngUrl: "http://s/", braveApiKey: "b" }, "openai-compatible");
    expect(searx.kind === "backend" && searx.backend.kind).toBe("searxng");
    const brave = createWebSearch({ ...base, braveApiKey: "b" }, undefined);
    expect(brave.kind === "backend" && brave.backend.kind).toBe("brave");
    expect(createWebSearch(base, "openai-compatible").kind).toBe("none");
    expect(createWebSearch({ kind: "tavily" }, "gemini").kind).toBe("none");
    expect(createWebSearch({ kind: "gemini" }, "openai-compatible").kind).toBe("none");
  });
});
