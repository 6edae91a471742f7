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

export const isAbort = (error: unknown) => (error as Error)?.name === "AbortError";

/** The caller's signal, plus a time limit on one model call. */
export const withModelTimeout = (signal?: AbortSignal) => AbortSignal.any([AbortSignal.timeout(MODEL_TIMEOUT_MS), ...(signal ? [signal] : [])]);
