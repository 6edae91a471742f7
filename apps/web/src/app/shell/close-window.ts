/** Spec 1: call the desktop close-window function if one exists, otherwise only log. */
export function closeWindow(): void {
  if (typeof window.sageDesktop?.closeWindow === "function") {
    window.sageDesktop.closeWindow();
    return;
  }
  console.log("Close window requested, but no desktop close-window function is available.");
}
