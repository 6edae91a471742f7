import { useEffect, type RefObject } from "react";

/** The CSS variable the toast viewport keeps clear at the bottom of the window (see ToastViewport). */
export const TOAST_CLEARANCE_VARIABLE = "--toast-clearance";

/**
 * Keeps toasts above an element fixed to the bottom of the screen, such as the chat's message box and Send
 * button, for as long as the element is mounted: toasts must never cover what the user types into.
 */
export function useToastClearance(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const update = () =>
      root.style.setProperty(TOAST_CLEARANCE_VARIABLE, `${Math.max(0, Math.ceil(window.innerHeight - element.getBoundingClientRect().top))}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    window.addEventListener("resize", update);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", update);
      root.style.removeProperty(TOAST_CLEARANCE_VARIABLE);
    };
  }, [ref]);
}
