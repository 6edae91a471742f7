import { expect, test, type Page } from "@playwright/test";
import { login, signIn } from "../support/auth.ts";
import { borderContrast } from "../support/contrast.ts";

const htmlClass = (page: Page) => page.locator("html");
const stored = (page: Page) => page.evaluate(() => ({ theme: localStorage.getItem("theme"), isSystemTheme: localStorage.getItem("isSystemTheme") }));

test.describe("theme", () => {
  test("with nothing stored the app follows the system preference", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/login");
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
  });

  test("the toggle flips the theme, stops following the system and persists across reloads", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await login(page);
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);

    const toDark = page.getByRole("button", { name: "Switch to dark mode" });
    await toDark.hover();
    await expect(page.getByRole("tooltip", { name: "Switch to dark mode" })).toBeVisible();
    await toDark.click();

    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(htmlClass(page)).not.toHaveClass(/(^|\s)light(\s|$)/);
    const toLight = page.getByRole("button", { name: "Switch to light mode" });
    await expect(toLight).toBeVisible();
    await page.mouse.move(10, 400, { steps: 4 });
    await page.mouse.move(20, 420, { steps: 2 });
    await toLight.hover();
    await expect(page.getByRole("tooltip", { name: "Switch to light mode" })).toBeVisible();
    expect(await stored(page)).toEqual({ theme: "dark", isSystemTheme: "false" });

    await page.reload();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(page.getByRole("button", { name: "Switch to light mode" })).toBeVisible();
    // No longer following the system.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.emulateMedia({ colorScheme: "light" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);

    await page.getByRole("button", { name: "Switch to light mode" }).click();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);
    expect(await stored(page)).toEqual({ theme: "light", isSystemTheme: "false" });
  });

  test("the theme is applied before the app renders (no flash)", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.addInitScript(() => {
      localStorage.setItem("theme", "light");
      localStorage.setItem("isSystemTheme", "false");
    });
    // Block the app script: only the inline script in index.html can set the class.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/login");
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);
    await expect(htmlClass(page)).not.toHaveClass(/(^|\s)dark(\s|$)/);
  });

  test("Settings > User Preferences: System Default, Light and Dark", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await login(page);
    await page.getByRole("navigation", { name: "Utilities" }).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Knowledge Base" })).toBeVisible();
    await page.getByRole("button", { name: "User Preferences" }).click();
    await expect(page.getByRole("heading", { name: "User Preferences" })).toBeVisible();

    const group = page.getByRole("radiogroup", { name: "Theme" });
    const system = group.getByRole("radio", { name: "System Default" });
    const light = group.getByRole("radio", { name: "Light" });
    const dark = group.getByRole("radio", { name: "Dark" });
    await expect(system).toBeChecked();

    // Following the system.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);

    // A fixed choice stops following.
    await dark.click();
    await expect(dark).toBeChecked();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await stored(page)).toEqual({ theme: "dark", isSystemTheme: "false" });
    await page.emulateMedia({ colorScheme: "light" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);

    await light.click();
    await expect(light).toBeChecked();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);

    // Back to the system: the flag is stored and the stored theme removed.
    await page.emulateMedia({ colorScheme: "dark" });
    await system.click();
    await expect(system).toBeChecked();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await stored(page)).toEqual({ theme: null, isSystemTheme: "true" });

    await page.reload();
    await expect(page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "System Default" })).toBeChecked();
    await page.emulateMedia({ colorScheme: "light" });
    await expect(htmlClass(page)).toHaveClass(/(^|\s)light(\s|$)/);

    // The toggle in the utility bar also stops following, and the radio shows it.
    await page.getByRole("button", { name: "Switch to dark mode" }).click();
    await expect(page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "Dark" })).toBeChecked();
  });

  test("unselected theme radio buttons stand out from the page (3:1) in both themes", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page);
    await page.goto("/settings?section=user-preferences");
    const group = page.getByRole("radiogroup", { name: "Theme" });
    await expect(group.getByRole("radio", { name: "System Default" })).toBeChecked();
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(htmlClass(page)).toHaveClass(new RegExp(`(^|\\s)${scheme}(\\s|$)`));
      for (const name of ["Light", "Dark"]) {
        const radio = group.getByRole("radio", { name });
        await expect(radio).not.toBeChecked();
        expect(await borderContrast(radio), `the unselected ${name} radio in the ${scheme} theme`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  test("the not-found card follows the theme", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await signIn(page);
    await page.goto("/no-such-page");
    const card = page.getByTestId("not-found-card");
    const lightBackground = await card.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.getByRole("button", { name: "Switch to dark mode" }).click();
    await expect(htmlClass(page)).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect.poll(() => card.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(lightBackground);
  });
});
