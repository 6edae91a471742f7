import { SignInNeededError, SignInUnavailableError } from "../sign-in/sign-in.module.ts";

const PROVIDER_NAMES: Record<string, string> = { google: "Google", microsoft: "Microsoft", oidc: "Your company" };

/**
 * What a sync does with an account whose sign-in failed: an ended sign-in asks for a new one (nothing synced is lost,
 * the sync goes on from there afterwards); a provider that cannot be reached is an error tried again later.
 * null for any other failure.
 */
export function signInFailure(
  error: unknown,
  provider: string | undefined,
): { status: "sign-in-needed"; error: null } | { status: "error"; error: string } | null {
  if (error instanceof SignInNeededError) return { status: "sign-in-needed", error: null };
  if (error instanceof SignInUnavailableError)
    return {
      status: "error",
      error: `${PROVIDER_NAMES[provider ?? ""] ?? "The provider"}'s sign-in could not be reached; SAGE will try again at the next sync.`,
    };
  return null;
}
