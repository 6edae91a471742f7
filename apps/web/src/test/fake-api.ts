import { onTestFinished, vi } from "vitest";

/** One request the fake answered: its method, path, and body (parsed JSON, FormData, or undefined). */
export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  signal: AbortSignal | undefined;
}

type Answer = Response | ((request: RecordedRequest) => Response | Promise<Response>);

/**
 * The API as the browser's fetch sees it: each route answers what a test says, every request is recorded,
 * and a request no route expects fails the test (a fake as strict as the server, which has no such route).
 */
export function fakeApi() {
  const routes: Array<{ method: string; path: string | RegExp; answer: Answer }> = [];
  const requests: RecordedRequest[] = [];
  const unexpected: string[] = [];

  const fetchFake = vi.fn<typeof fetch>(async (input, init = {}) => {
    const path = typeof input === "string" ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const method = (init.method ?? "GET").toUpperCase();
    const raw = init.body;
    const body = typeof raw === "string" ? JSON.parse(raw) : (raw ?? undefined);
    const request: RecordedRequest = { method, path, body, signal: init.signal ?? undefined };
    // The newest route wins, so a test can change an answer half way.
    const route = [...routes]
      .reverse()
      .find((candidate) => candidate.method === method && (typeof candidate.path === "string" ? candidate.path === path : candidate.path.test(path)));
    if (!route) {
      unexpected.push(`${method} ${path}`);
      throw new TypeError(`No fake answer for ${method} ${path}`);
    }
    if (init.signal?.aborted) throw abortError();
    requests.push(request);
    const response = typeof route.answer === "function" ? await route.answer(request) : route.answer.clone();
    return init.signal ? abortable(response, init.signal) : response;
  });
  vi.stubGlobal("fetch", fetchFake);
  onTestFinished(() => {
    vi.unstubAllGlobals();
    if (unexpected.length > 0) throw new Error(`Requests no route expected: ${unexpected.join(", ")}`);
  });

  const api = {
    /** Answers `method path` (a path or a pattern) with a response, or a function of the request. */
    on(method: string, path: string | RegExp, answer: Answer) {
      routes.push({ method: method.toUpperCase(), path, answer });
      return api;
    },
    /** The requests made to `method path` so far. */
    requests(method: string, path: string | RegExp) {
      return requests.filter(
        (request) => request.method === method.toUpperCase() && (typeof path === "string" ? request.path === path : path.test(request.path)),
      );
    },
  };
  return api;
}

/** A JSON error reply in the server's one error shape. */
export const errorReply = (status: number, statusText: string, error: string, code = "error") => Response.json({ error, code }, { status, statusText });

const abortError = () => new DOMException("The operation was aborted.", "AbortError");

/** As with a real fetch, aborting the request's signal ends the body being read with an AbortError. */
function abortable(response: Response, signal: AbortSignal): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  let aborted = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener("abort", () => {
        aborted = true;
        controller.error(abortError());
        void reader.cancel();
      });
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (aborted) return;
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
