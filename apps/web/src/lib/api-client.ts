import type { ZodType } from "zod";

/** A non-2xx reply. The message is `${status}: ${body text || status text}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.statusText = statusText;
    this.bodyText = bodyText;
  }

  /** The `error` field of a JSON error body, when there is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string") {
        return parsed.error;
      }
    } catch {
      // Not JSON.
    }
    return undefined;
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called on every 401 from the API (the session is gone). Returns an unsubscribe function. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function notifyUnauthorized(): void {
  for (const listener of [...unauthorizedListeners]) listener();
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  let bodyText = "";
  try {
    bodyText = await response.text();
  } catch {
    // Body unreadable: fall back to the status text.
  }
  throw new ApiError(response.status, response.statusText, bodyText);
}

export interface ApiFetchOptions {
  method?: string;
  /** Sent as JSON (with a JSON content-type) unless it is FormData; omitted when undefined. */
  body?: unknown;
  signal?: AbortSignal;
  /** Set false where a 401 is an expected answer (the login call) rather than a lost session. */
  notifyUnauthorized?: boolean;
}

/** The raw call: credentials included, 401 reported, non-2xx thrown as ApiError. */
export async function apiFetch(path: string, options: ApiFetchOptions = {}): Promise<Response> {
  const { method = "GET", body, signal, notifyUnauthorized: notify = true } = options;
  const init: RequestInit = { method, credentials: "include", signal };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 401 && notify) notifyUnauthorized();
  await throwIfNotOk(response);
  return response;
}

/** A read: GET, null on 401, ApiError on any other non-2xx, JSON (checked by `schema` when given). */
export async function getJson<T>(path: string, schema?: ZodType<T>): Promise<T | null> {
  const response = await fetch(path, { credentials: "include" });
  if (response.status === 401) {
    notifyUnauthorized();
    return null;
  }
  await throwIfNotOk(response);
  const data: unknown = await response.json();
  return schema ? schema.parse(data) : (data as T);
}

export interface ApiRequestOptions<T> extends ApiFetchOptions {
  schema?: ZodType<T>;
}

/** A write (or any call): JSON reply parsed (and checked by `schema`); undefined for an empty body. */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  const { schema, ...fetchOptions } = options;
  const response = await apiFetch(path, fetchOptions);
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  return schema ? schema.parse(data) : (data as T);
}
