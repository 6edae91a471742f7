import type { ModelFailureReason } from "@sage/contracts/chat-turn";
import { AppError } from "../../http/app-error.ts";
import { ProviderError } from "../../providers/llm/llm.ts";

const MODEL_TIMEOUT_MS = 120_000;

/** Turns a provider failure into a 502 that names the model's status; aborts and AppErrors pass through untouched. */
export function modelFailure(error: unknown): unknown {
  if (error instanceof AppError || isAbort(error)) return error;
  const status = error instanceof ProviderError ? error.status : undefined;
  const reason = (error as Error)?.message ?? String(error);
  return new AppError("model_error", 502, `The model request failed${status ? ` (${status})` : ""}: ${reason}`);
}

/**
 * Why a model call failed, for the saved answer (issue 52 item 13): the time limit, the quota (429), a refusal (400,
 * 401, 403: a key or a request the service will not take), a service out of reach, or the service's own error.
 * The user's own Stop is not a failure and never comes here.
 */
export function modelFailureReason(error: unknown): ModelFailureReason {
  const name = (error as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") return "timeout";
  if (!(error instanceof ProviderError)) return "failed";
  if (error.status === 429) return "quota";
  if (error.status === 400 || error.status === 401 || error.status === 403) return "refused";
  return error.unreachable ? "unreachable" : "failed";
}

export const isAbort = (error: unknown) => (error as Error)?.name === "AbortError";

/** The caller's signal, plus a time limit on one model call. */
export const withModelTimeout = (signal?: AbortSignal) => AbortSignal.any([AbortSignal.timeout(MODEL_TIMEOUT_MS), ...(signal ? [signal] : [])]);
