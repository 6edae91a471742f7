import { act, render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import { shownToasts } from "@/test/shown-toasts";
import { errorToast, toastError } from "./toast-error";
import { Toaster } from "./toaster";

const serverError = (status: number, statusText: string, body: unknown) => new ApiError(status, statusText, JSON.stringify(body));

describe("toastError", () => {
  it("shows a red toast titled Error with the failure's words", () => {
    render(<Toaster />);
    act(() => void toastError({ description: "Failed to update name" }));
    expect(shownToasts()).toEqual([{ title: "Error", description: "Failed to update name", variant: "destructive" }]);
  });

  it("keeps a failure's own title, and shows the next failure in place of the last (one toast at a time)", () => {
    render(<Toaster />);
    act(() => void toastError({ title: "Voice Input Error", description: "Microphone access denied" }));
    act(() => void toastError({ title: "Failed to create reminder", description: "Failed to create reminder" }));
    expect(shownToasts()).toEqual([{ title: "Failed to create reminder", description: "Failed to create reminder", variant: "destructive" }]);
  });

  it("shows the server's reason for a failed call, else the fallback", () => {
    render(<Toaster />);
    act(
      () =>
        void toastError({
          title: "Failed to create reminder",
          error: serverError(400, "Bad Request", { error: "dueDate must be a date", code: "bad_request" }),
          fallback: "Failed to create reminder",
        }),
    );
    expect(shownToasts()).toEqual([{ title: "Failed to create reminder", description: "dueDate must be a date", variant: "destructive" }]);
    act(
      () =>
        void toastError({
          title: "Failed to create reminder",
          error: new TypeError("Failed to fetch"),
          fallback: "Failed to create reminder",
          otherErrors: "fallback",
        }),
    );
    expect(shownToasts()).toEqual([{ title: "Failed to create reminder", description: "Failed to create reminder", variant: "destructive" }]);
  });
});

describe("errorToast", () => {
  it("reads the parts of the error each caller asks for", () => {
    const noBody = new ApiError(503, "Service Unavailable", "");
    expect(errorToast({ error: noBody, fallback: "Failed to retry", orElse: "statusText" })).toEqual({
      title: "Error",
      description: "Service Unavailable",
      variant: "destructive",
    });
    expect(errorToast({ error: noBody, fallback: "Failed to retry" }).description).toBe("Failed to retry");
    const restore = serverError(409, "Conflict", { error: "conflict", message: "A restore is already running" });
    expect(errorToast({ title: "Restore Failed", error: restore, fallback: "The snapshot could not be restored", fields: ["message", "error"] })).toEqual({
      title: "Restore Failed",
      description: "A restore is already running",
      variant: "destructive",
    });
  });
});
