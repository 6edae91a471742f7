import { ConversionError } from "../extracted-document.ts";

/** Shown for any file saved with a password to open it: what it is, and what the user can do (decision 033). */
export function passwordProtected(what: string): ConversionError {
  return new ConversionError(`${what} is password-protected. Save a copy without the password and add that instead.`);
}

/**
 * A reader library's failure in words a user understands. Its own message ("invalid zip data", "Attempt to access
 * memory outside buffer bounds") says nothing to them, so it is never shown; a password it mentions is.
 */
export function readerFailure(what: string, error: unknown): ConversionError {
  const message = String((error as Error | undefined)?.message ?? error);
  if (/password/i.test(message)) return passwordProtected(what);
  // The library's words stay in the log (ConversionError.detail), one step away for whoever needs them.
  return new ConversionError(`${what} could not be read: the file is damaged, or it is not the type its name says.`, message);
}
