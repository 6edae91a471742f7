import { expect, test } from "@playwright/test";
import { login } from "../support/auth.ts";

test.use({ viewport: { width: 1280, height: 800 } });

for (const colorScheme of ["light", "dark"] as const) {
  test(`screenshot of the shell in ${colorScheme}`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await login(page);
    await expect(page.locator("html")).toHaveClass(new RegExp(`(^|\\s)${colorScheme}(\\s|$)`));
    await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
    await page.mouse.move(640, 600);

    const path = testInfo.outputPath(`shell-${colorScheme}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`shell-${colorScheme}`, { path, contentType: "image/png" });

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    const loginPath = testInfo.outputPath(`login-${colorScheme}.png`);
    await page.screenshot({ path: loginPath });
    await testInfo.attach(`login-${colorScheme}`, { path: loginPath, contentType: "image/png" });
  });
}
