import type { Page } from "@playwright/test";

/**
 * A toast by its text, found inside the Notifications region. (getByRole("status") finds Radix's
 * screen-reader announcement instead, which is removed after about a second.)
 */
export const toastWith = (page: Page, text: string) => page.locator('[role="region"][aria-label^="Notifications"] li').filter({ hasText: text });
