import { screen, within } from "@testing-library/react";

export interface ShownToast {
  title: string;
  description: string;
  /** How it looks: red for a failure, amber for a warning. */
  variant: "destructive" | "warning" | "default";
}

/**
 * The toasts on screen, read from the Notifications region the way a user sees them. (Radix's screen-reader
 * announcement, role status, repeats the text elsewhere; it is not what is shown.) An open dialog hides the
 * region from the accessibility tree, not from the eye, so hidden elements count.
 */
export function shownToasts(): ShownToast[] {
  const region = screen.queryByRole("region", { name: /^Notifications/, hidden: true });
  if (!region) return [];
  return within(region)
    .queryAllByRole("listitem", { hidden: true })
    .map((item) => {
      const [title = "", description = ""] = [...item.querySelectorAll(".grid > div")].map((part) => part.textContent ?? "");
      const variant = item.classList.contains("destructive") ? "destructive" : item.classList.contains("warning") ? "warning" : "default";
      return { title, description, variant };
    });
}
