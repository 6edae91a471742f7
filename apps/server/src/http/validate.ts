import type { z } from "zod";
import { AppError } from "./app-error.ts";

/** Parses request input with a contract schema; a failure is a 400 naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : where;
  throw new AppError("validation_error", 400, `Invalid ${where}: ${field}: ${issue?.message ?? "invalid value"}`);
}
