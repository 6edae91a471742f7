import { errorResponseSchema } from "@sage/contracts/errors";
import { z, type ZodType } from "zod";

/**
 * What the web reads of an error body: `error` on every route, `message` beside it on the routes whose
 * reply names one (web search, the test query). A field of another type counts as absent.
 */
const errorBodySchema = z
  .object({
    error: errorResponseSchema.shape.error.optional().catch(undefined),
    message: z.string().optional().catch(undefined),
  })
  .catch({});
export type ErrorBody = z.infer<typeof errorBodySchema>;

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

  /** The body as JSON, or undefined when it is not JSON. */
  get json(): unknown {
    const data = parseReplyText(this.bodyText);
    return typeof data === "string" ? undefined : data;
  }

  /** The error fields of a JSON body (none when the body is not JSON). */
  get body(): ErrorBody {
    return errorBodySchema.parse(this.json);
  }

  /** The `error` field of a JSON error body, when there is one. */
  get serverMessage(): string | undefined {
    return this.body.error;
  }
}

/** A reply body: JSON when it parses, else the text itself; undefined when empty. */
export function parseReplyText(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called on every 401 from the API (the session is gone). Returns an unsubscribe function. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Tells every listener the session is gone; the transports call it on a 401. */
export function notifyUnauthorized(): void {
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
export async function getJson<T>(path: string, schema: ZodType<T>): Promise<T | null>;
export async function getJson(path: string): Promise<unknown>;
export async function getJson(path: string, schema?: ZodType): Promise<unknown> {
  const response = await fetch(path, { credentials: "include" });
  if (response.status === 401) {
    notifyUnauthorized();
    return null;
  }
  await throwIfNotOk(response);
  const data: unknown = await response.json();
  return schema ? schema.parse(data) : data;
}

/** A reply's status and body (JSON when it parses, else text; undefined when empty). */
export interface ApiReply {
  status: number;
  statusText: string;
  bodyText: string;
  data: unknown;
}

/** Any call whose reply status matters as well as its body; non-2xx thrown as ApiError. */
export async function apiCall(path: string, options: ApiFetchOptions = {}): Promise<ApiReply> {
  const response = await apiFetch(path, options);
  const bodyText = await response.text();
  return { status: response.status, statusText: response.statusText, bodyText, data: parseReplyText(bodyText) };
}

/** A write (or any call): the reply body, checked by `schema` when given. */
export async function apiRequest<T>(path: string, options: ApiFetchOptions & { schema: ZodType<T> }): Promise<T>;
export async function apiRequest(path: string, options?: ApiFetchOptions): Promise<unknown>;
export async function apiRequest(path: string, options: ApiFetchOptions & { schema?: ZodType } = {}): Promise<unknown> {
  const { schema, ...fetchOptions } = options;
  const { data } = await apiCall(path, fetchOptions);
  return schema ? schema.parse(data) : data;
}
