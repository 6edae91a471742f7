/** In the desktop shell, close the window through its bridge; in a plain browser there is nothing to close, so only log. */
export function closeWindow(): void {
  if (typeof window.sageDesktop?.closeWindow === "function") {
    window.sageDesktop.closeWindow();
    return;
  }
  console.log("Close window requested, but no desktop close-window function is available.");
}
