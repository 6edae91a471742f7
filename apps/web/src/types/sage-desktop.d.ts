/** The bridge a desktop wrapper may expose to the page. */
interface SageDesktopBridge {
  closeWindow: () => void;
}

interface Window {
  sageDesktop?: SageDesktopBridge;
}
