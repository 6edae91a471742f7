import { errorMessage, type ErrorMessageOptions } from "@/lib/error-message";
import { toast } from "./use-toast";

/** The title of a failure's toast when the failure has none of its own. */
export const ERROR_TOAST_TITLE = "Error";

/**
 * A failure to show: its words as a text, or the error itself with the parts of it to show (see errorMessage:
 * the fallback when nothing better is known, which fields of the server's reply to read).
 */
export type ErrorToastInput = { title?: string } & ({ description: string } | ({ error: unknown } & ErrorMessageOptions));

/** The toast of a failure as data: red, titled "Error" unless the failure has a title of its own. */
export function errorToast(input: ErrorToastInput) {
  const { title = ERROR_TOAST_TITLE } = input;
  const description = "description" in input ? input.description : errorMessage(input.error, input);
  return { title, description, variant: "destructive" as const };
}

/** Shows a failure: the one way the app shows a red toast. */
export function toastError(input: ErrorToastInput) {
  return toast(errorToast(input));
}
